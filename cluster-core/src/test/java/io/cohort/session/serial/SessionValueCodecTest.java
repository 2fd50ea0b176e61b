package io.cohort.session.serial;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectOutputStream;
import java.io.Serial;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class SessionValueCodecTest {

    record Item(String id, BigDecimal price) implements Serializable {
    }

    private final List<String> rejected = new CopyOnWriteArrayList<>();
    // the "application" loader is a different loader than the test's, so test classes count as libraries
    private final ClassLoader application = new ClassLoader(getClass().getClassLoader()) { };

    private SessionValueCodec codec(List<String> allow, long maxBytes, int maxDepth) {
        return new SessionValueCodec(getClass().getClassLoader(),
                new AllowListFilter(allow, maxBytes, maxDepth, 10_000, application, rejected::add), maxBytes);
    }

    @Test
    void jdkValueTypesRoundTrip() throws Exception {
        SessionValueCodec codec = codec(List.of(), 1 << 20, 20);
        Map<String, Object> cart = new HashMap<>(Map.of("EST-1", 2, "total", new BigDecimal("33.50")));
        List<Object> values = new ArrayList<>(List.of("text", 42L, Instant.parse("2026-11-21T10:00:00Z"), cart));

        assertThat(codec.deserialize("values", codec.serialize("values", values))).isEqualTo(values);
        assertThat(rejected).isEmpty();
    }

    @Test
    void setsNestedToHashForAgesAreRefusedBeforeTheyAreHashed() {
        SessionValueCodec codec = codec(List.of(), 1 << 20, 100); // the default depth limit
        // "SerialDOS": each level's two sets both hold the next level's two, so rebuilding the outermost set hashes
        // 2^40 sets; a few kilobytes, every class a JDK one, within every size, depth and reference limit
        Set<Object> root = new HashSet<>();
        Set<Object> left = root;
        Set<Object> right = new HashSet<>();
        for (int level = 0; level < 40; level++) {
            Set<Object> nextLeft = new HashSet<>();
            Set<Object> nextRight = new HashSet<>();
            nextLeft.add("level" + level);
            left.add(nextLeft);
            left.add(nextRight);
            right.add(nextLeft);
            right.add(nextRight);
            left = nextLeft;
            right = nextRight;
        }
        byte[] bytes = codec.serialize("bomb", root);

        Throwable thrown = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10),
                () -> catchThrowable(() -> codec.deserialize("bomb", bytes)));
        assertThat(thrown).isInstanceOf(RejectedValueException.class).hasMessageContaining("'bomb'")
                .hasMessageContaining("nested");
    }

    @Test
    void containersNestedAsApplicationsNestThemAreRead() throws Exception {
        SessionValueCodec codec = codec(List.of(), 1 << 20, 100);
        Object value = "leaf";
        for (int level = 0; level < 12; level++) {
            value = level % 3 == 0 ? new HashMap<>(Map.of("k" + level, value))
                    : level % 3 == 1 ? new ArrayList<>(List.of(value, "x")) : new HashSet<>(Set.of(value));
        }

        assertThat(codec.deserialize("nested", codec.serialize("nested", value))).isEqualTo(value);
    }

    @Test
    void aValueWhoseReadingOverflowsTheStackIsRejectedNotThrownAsAnError() {
        SessionValueCodec codec = codec(List.of(), 1 << 20, 20);
        // written fine; read back, the set hashes the list, whose hash code recurses into itself
        List<Object> list = new ArrayList<>();
        Set<Object> set = new HashSet<>();
        set.add(list);
        list.add(list);
        byte[] bytes = codec.serialize("tags", set);

        assertThatThrownBy(() -> codec.deserialize("tags", bytes))
                .isInstanceOf(RejectedValueException.class).hasMessageContaining("'tags'")
                .hasMessageContaining("StackOverflowError");
    }

    @Test
    void aValueTooDeeplyNestedToSerializeFailsAtSetAttributeWithAClearError() {
        SessionValueCodec codec = codec(List.of(), 1 << 20, 20);
        Object nested = "leaf";
        for (int i = 0; i < 200_000; i++) {
            List<Object> outer = new ArrayList<>();
            outer.add(nested);
            nested = outer;
        }
        Object value = nested;

        assertThatThrownBy(() -> codec.serialize("tree", value))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'tree'")
                .hasMessageContaining("too deeply nested");
        // the thread's stream is fit for the next value
        assertThat(codec.serialize("next", "ok")).isNotEmpty();
    }

    @Test
    void classOutsideTheAllowListIsRejectedWithoutRunningItsCode() {
        SessionValueCodec codec = codec(List.of(), 1 << 20, 20);
        byte[] gadget = codec.serialize("evil", new Gadget());
        Gadget.reset();

        assertThatThrownBy(() -> codec.deserialize("evil", gadget))
                .isInstanceOf(RejectedValueException.class)
                .hasMessageContaining("'evil'").hasMessageContaining("rejected by the deserialization filter");
        assertThat(Gadget.executed()).isFalse();
        assertThat(rejected).containsExactly(Gadget.class.getName());
    }

    @Test
    void aUrlIsNotAcceptedByDefaultBecauseItsHashCodeLooksItsHostUp() throws Exception {
        SessionValueCodec codec = codec(List.of(), 1 << 20, 20);
        // the URLDNS probe: deserializing the map rehashes its keys, and URL.hashCode resolves the host (a literal
        // address here, so that the accepted case below looks nothing up)
        byte[] probe = codec.serialize("probe", new HashMap<>(Map.of(new java.net.URL("http://127.0.0.1/"), "x")));

        assertThatThrownBy(() -> codec.deserialize("probe", probe)).isInstanceOf(RejectedValueException.class);
        assertThat(rejected).containsExactly("java.net.URL");
        assertThat(codec(List.of("java.net.URL"), 1 << 20, 20).deserialize("probe", probe)).as("allowed by pattern")
                .isInstanceOf(Map.class);
    }

    @Test
    void aClassTheApplicationCannotLoadIsNotReadWithTheNodesLoaderEvenIfAPatternAllowsIt() {
        // an application's loader that sees the JDK only, as a web application's does not see the server's classes
        ClassLoader webApplication = new java.net.URLClassLoader(new java.net.URL[0], ClassLoader.getPlatformClassLoader());
        SessionValueCodec codec = new SessionValueCodec(webApplication,
                new AllowListFilter(List.of("io.cohort.session.serial.*"), 1 << 20, 20, 10_000, webApplication,
                        rejected::add), 1 << 20);
        byte[] item = codec.serialize("item", new Item("EST-1", new BigDecimal("16.50")));

        assertThatThrownBy(() -> codec.deserialize("item", item)).isInstanceOf(RejectedValueException.class)
                .hasMessageContaining("class not found in the application");
    }

    @Test
    void primitiveTypesAreReadThoughNoClassLoaderHasThem() throws Exception {
        SessionValueCodec codec = codec(List.of(), 1 << 20, 20);
        byte[] types = codec.serialize("types", new ArrayList<>(List.of(int.class, long.class, boolean.class)));

        assertThat(codec.deserialize("types", types)).isEqualTo(List.of(int.class, long.class, boolean.class));
    }

    @Test
    void classAllowedByPatternIsAccepted() throws Exception {
        SessionValueCodec codec = codec(List.of("io.cohort.session.serial.*"), 1 << 20, 20);
        Item item = new Item("EST-1", new BigDecimal("16.50"));

        assertThat(codec.deserialize("item", codec.serialize("item", item))).isEqualTo(item);
    }

    @Test
    void tooDeepObjectGraphIsRejected() {
        SessionValueCodec codec = codec(List.of(), 1 << 20, 5);
        List<Object> nested = new ArrayList<>();
        List<Object> current = nested;
        for (int i = 0; i < 20; i++) {
            List<Object> next = new ArrayList<>();
            current.add(next);
            current = next;
        }
        byte[] bytes = codec.serialize("deep", nested);

        assertThatThrownBy(() -> codec.deserialize("deep", bytes)).isInstanceOf(RejectedValueException.class);
    }

    @Test
    void valueLargerThanTheLimitIsRejectedBeforeReading() {
        SessionValueCodec codec = codec(List.of(), 1_000, 20);
        byte[] bytes = codec.serialize("big", new byte[5_000]);

        assertThatThrownBy(() -> codec.deserialize("big", bytes))
                .isInstanceOf(RejectedValueException.class).hasMessageContaining("exceed the limit of 1000");
    }

    @Test
    void arrayDeclaringMoreElementsThanTheByteLimitIsRejectedBeforeItIsAllocated() throws Exception {
        SessionValueCodec codec = codec(List.of(), 1 << 20, 20);
        // a few dozen bytes each: Object[MAX - 8] needs more than any test heap (OutOfMemoryError if allocated),
        // long[200 million] 1.6 GB (allocated, then the stream ends)
        byte[] objects = declaringLength(new Object[0], Integer.MAX_VALUE - 8);
        byte[] longs = declaringLength(new long[0], 200_000_000);
        assertThat(longs.length).isLessThan(40);

        assertThatThrownBy(() -> codec.deserialize("objects", objects))
                .isInstanceOf(RejectedValueException.class).hasMessageContaining("rejected by the deserialization filter");
        assertThatThrownBy(() -> codec.deserialize("longs", longs))
                .isInstanceOf(RejectedValueException.class).hasMessageContaining("rejected by the deserialization filter");
        assertThat(rejected).as("a limit, not a class an allow pattern could admit")
                .containsExactly("(limit exceeded)", "(limit exceeded)");
    }

    @Test
    void arrayThatFitsTheByteLimitIsAccepted() throws Exception {
        SessionValueCodec codec = codec(List.of(), 1_000, 20);
        byte[] bytes = codec.serialize("small", new byte[950]);
        assertThat(bytes.length).isLessThanOrEqualTo(1_000);

        assertThat((byte[]) codec.deserialize("small", bytes)).hasSize(950);
        assertThat((long[]) codec.deserialize("longs", codec.serialize("longs", new long[100]))).hasSize(100);
        assertThat(rejected).isEmpty();
    }

    /** The bytes of an empty array with its length field rewritten: a stream that declares {@code length} elements. */
    private static byte[] declaringLength(Object emptyArray, int length) throws Exception {
        byte[] bytes = freshStreamBytes(emptyArray);
        java.nio.ByteBuffer.wrap(bytes).putInt(bytes.length - 4, length); // the length is the stream's last field
        return bytes;
    }

    @Test
    void malformedBytesAreRejectedNotThrownAsSomethingElse() {
        SessionValueCodec codec = codec(List.of(), 1 << 20, 20);

        assertThatThrownBy(() -> codec.deserialize("junk", new byte[] {(byte) 0xAC, (byte) 0xED, 0, 5, 1, 2, 3}))
                .isInstanceOf(RejectedValueException.class).hasMessageContaining("malformed");
    }

    @Test
    void nonSerializableValueIsRefusedNamingAttributeAndClass() {
        assertThatThrownBy(() -> SessionValueCodec.requireSerializable("thing", new Object()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'thing'").hasMessageContaining("java.lang.Object");
        assertThatThrownBy(() -> codec(List.of(), 1 << 20, 20).serialize("holder", new ArrayList<>(List.of(new Object()))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'holder'");
    }

    /** What a fresh stream writes for the value: the format every copy must keep. */
    private static byte[] freshStreamBytes(Object value) throws Exception {
        var bytes = new ByteArrayOutputStream();
        try (var out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        return bytes.toByteArray();
    }

    /** A value whose serialization serializes another value through the codec, on the same thread. */
    record Nested(String name) implements Serializable {
        @Serial
        private void writeObject(ObjectOutputStream out) throws IOException {
            out.defaultWriteObject();
            out.writeObject(NESTING.serialize("inner", List.of(name, name)));
        }
    }

    private static final SessionValueCodec NESTING = new SessionValueCodec(SessionValueCodecTest.class.getClassLoader(),
            ObjectInputFilter.Config.createFilter("*"), 1 << 20);

    @Test
    void eachValueGetsTheBytesOfAFreshStreamThoughTheThreadReusesOne() throws Exception {
        SessionValueCodec codec = codec(List.of(), 1 << 20, 20);
        Item shared = new Item("EST-1", new BigDecimal("16.50"));
        List<Object> values = List.of(shared, List.of(shared, shared, new Item("EST-2", BigDecimal.ONE)), "text",
                shared, new HashMap<>(Map.of("k", shared)), 42L, new Nested("n"), shared);
        for (Object value : values) {
            assertThat(codec.serialize("v", value)).as(String.valueOf(value)).isEqualTo(freshStreamBytes(value));
        }
        byte[] large = new byte[600_000]; // grows the thread's buffer past what it keeps
        assertThat(codec.serialize("large", large)).isEqualTo(freshStreamBytes(large));
        assertThat(codec.serialize("after", shared)).isEqualTo(freshStreamBytes(shared));
    }

    @Test
    void aValueThatFailsHalfWrittenLeavesNothingBehindForTheNext() throws Exception {
        SessionValueCodec codec = codec(List.of("io.cohort.session.serial.*"), 1 << 20, 20);
        Item item = new Item("EST-3", BigDecimal.TEN);
        assertThatThrownBy(() -> codec.serialize("holder", new ArrayList<>(List.of(item, new Object()))))
                .isInstanceOf(IllegalArgumentException.class);
        byte[] next = codec.serialize("item", item);
        assertThat(next).isEqualTo(freshStreamBytes(item));
        assertThat(codec.deserialize("item", next)).isEqualTo(item);
    }
}
