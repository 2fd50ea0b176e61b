package io.cohort.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The configured limits and allow-list become a java.io.ObjectInputFilter that does what the reference page says. */
class SerializationConfigTest {

    private final SerializationConfig config = new SerializationConfig(DataSize.parse("1KiB"), 10, 1000,
            List.of("java.util.ArrayList", "java.lang.Integer", "java.lang.Number", "java.lang.Object"));

    @Test
    void filterPatternListsLimitsThenAllowedClassesThenRejectsTheRest() {
        assertThat(config.filterPattern())
                .isEqualTo("maxbytes=1024;maxdepth=10;maxrefs=1000;java.util.ArrayList;java.lang.Integer;java.lang.Number;"
                        + "java.lang.Object;!*");
    }

    @Test
    void allowListedClassesAreReadAndOthersRejected() throws Exception {
        // ArrayList reads its elements into an Object[], so java.lang.Object must be allowed too
        assertThat(readBack(new ArrayList<>(List.of(1, 2)))).isEqualTo(List.of(1, 2));
        assertThat(readBack(new byte[] {1, 2})).isEqualTo(new byte[] {1, 2});
        assertThatExceptionOfType(InvalidClassException.class).isThrownBy(() -> readBack(new HashMap<String, String>()));
        // max-bytes is checked whenever the filter is consulted, here at the Integer after 2000 bytes of text
        assertThatExceptionOfType(InvalidClassException.class).isThrownBy(() -> readBack(new ArrayList<>(List.of("x".repeat(2000), 1))));
    }

    @Test
    void duplicatePatternsAreKeptOnceInFileOrder() {
        SerializationConfig duplicated = new SerializationConfig(DataSize.parse("1MB"), 1, 1, List.of("a.*", "b.*", "a.*"));

        assertThat(duplicated.allow()).containsExactly("a.*", "b.*");
    }

    private Object readBack(Object value) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            in.setObjectInputFilter(ObjectInputFilter.Config.createFilter(config.filterPattern()));
            return in.readObject();
        }
    }
}
