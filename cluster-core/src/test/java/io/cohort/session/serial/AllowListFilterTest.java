package io.cohort.session.serial;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.io.ObjectInputFilter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which classes of the application's loader count as the application's own: those from
 * {@code WEB-INF/classes}, and not those from any archive in {@code WEB-INF/lib} (Jetty puts every
 * {@code .jar} and {@code .zip} there on the class path, whatever the case of the extension).
 */
class AllowListFilterTest {

    private static final String CLASS_FILE = Gadget.class.getName().replace('.', '/') + ".class";

    @TempDir
    Path webapp;

    private final List<String> rejected = new CopyOnWriteArrayList<>();

    @Test
    void anArrayIsRefusedWhenItsElementsWouldTakeMoreMemoryThanTheByteLimit() {
        long maxBytes = 1 << 20;
        AllowListFilter filter = new AllowListFilter(List.of(), maxBytes, 20, 10_000, getClass().getClassLoader(), name -> { });

        // a stream allocates an array of the length it declares before reading any element: a few bytes could
        // otherwise make it allocate eight times the limit
        assertThat(filter.checkInput(array(long[].class, maxBytes / 8 + 1))).isEqualTo(ObjectInputFilter.Status.REJECTED);
        assertThat(filter.checkInput(array(long[].class, maxBytes / 8))).isNotEqualTo(ObjectInputFilter.Status.REJECTED);
        assertThat(filter.checkInput(array(byte[].class, maxBytes))).isNotEqualTo(ObjectInputFilter.Status.REJECTED);
        assertThat(filter.checkInput(array(String[].class, maxBytes / 2))).isEqualTo(ObjectInputFilter.Status.REJECTED);
    }

    private static ObjectInputFilter.FilterInfo array(Class<?> type, long length) {
        return new ObjectInputFilter.FilterInfo() {
            @Override public Class<?> serialClass() { return type; }
            @Override public long arrayLength() { return length; }
            @Override public long depth() { return 1; }
            @Override public long references() { return 1; }
            @Override public long streamBytes() { return 64; }
        };
    }

    @Test
    void classFromWebInfClassesIsTheApplicationsOwnAndAccepted() throws Exception {
        Path classes = webapp.resolve("WEB-INF/classes");
        Path file = classes.resolve(CLASS_FILE);
        Files.createDirectories(file.getParent());
        try (InputStream bytes = classBytes(); OutputStream out = Files.newOutputStream(file)) {
            bytes.transferTo(out);
        }
        try (URLClassLoader application = applicationLoader(classes.toUri().toURL())) {
            Object value = codec(application).deserialize("own", serializedGadget());

            assertThat(value.getClass().getName()).isEqualTo(Gadget.class.getName());
            assertThat(value.getClass().getClassLoader()).isSameAs(application);
            assertThat(rejected).isEmpty();
        }
    }

    @Test
    void classFromAnyArchiveInWebInfLibIsALibraryAndNeedsAPattern() throws Exception {
        for (String archive : List.of("gadgets.jar", "gadgets.zip", "gadgets.JAR", "gadgets.Zip")) {
            Path lib = webapp.resolve("WEB-INF/lib").resolve(archive);
            Files.createDirectories(lib.getParent());
            try (InputStream bytes = classBytes(); ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(lib))) {
                zip.putNextEntry(new ZipEntry(CLASS_FILE));
                bytes.transferTo(zip);
                zip.closeEntry();
            }
            try (URLClassLoader application = applicationLoader(lib.toUri().toURL())) {
                assertThat(application.loadClass(Gadget.class.getName()).getClassLoader()).as(archive).isSameAs(application);

                Throwable thrown = catchThrowable(() -> codec(application).deserialize("lib", serializedGadget()));
                assertThat(thrown).as(archive).isInstanceOf(RejectedValueException.class)
                        .hasMessageContaining("rejected by the deserialization filter");
                assertThat(rejected).as(archive).containsExactly(Gadget.class.getName());
                rejected.clear();

                SessionValueCodec allowing = new SessionValueCodec(application, new AllowListFilter(
                        List.of(Gadget.class.getName()), 1 << 20, 20, 10_000, application, rejected::add), 1 << 20);
                assertThat(allowing.deserialize("lib", serializedGadget()).getClass().getClassLoader()).as(archive)
                        .isSameAs(application);
            }
        }
    }

    /** A loader that defines the classes at {@code location} itself, as a web application's loader does. */
    private static URLClassLoader applicationLoader(URL location) {
        return new URLClassLoader(new URL[] {location}, ClassLoader.getPlatformClassLoader());
    }

    private SessionValueCodec codec(ClassLoader application) {
        return new SessionValueCodec(application,
                new AllowListFilter(List.of(), 1 << 20, 20, 10_000, application, rejected::add), 1 << 20);
    }

    private static InputStream classBytes() {
        return Gadget.class.getClassLoader().getResourceAsStream(CLASS_FILE);
    }

    private static byte[] serializedGadget() throws IOException {
        var bytes = new ByteArrayOutputStream();
        try (var out = new ObjectOutputStream(bytes)) {
            out.writeObject(new Gadget());
        }
        return bytes.toByteArray();
    }
}
