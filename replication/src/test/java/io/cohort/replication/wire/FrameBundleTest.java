package io.cohort.replication.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cohort.replication.wire.ReplicationMessage.Acknowledgement;
import io.cohort.replication.wire.ReplicationMessage.ReleaseCopy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FrameBundleTest {

    private final MessageCodec codec = new MessageCodec(WireLimits.DEFAULT);

    @Test
    void framesComeBackInOrderAndEachStillDecodes() throws Exception {
        List<byte[]> frames = List.of(codec.encode(new ReleaseCopy("shop", "a", 1)), codec.encode(new Acknowledgement(7)),
                codec.encode(new ReleaseCopy("shop", "b", 300)));
        byte[] bundle = withPadding(FrameBundle.encode(frames));

        assertThat(FrameBundle.isBundle(bundle, 3, bundle.length - 6)).isTrue();
        int[] regions = FrameBundle.regions(bundle, 3, bundle.length - 6);

        assertThat(regions).hasSize(6);
        List<ReplicationMessage> decoded = new ArrayList<>();
        for (int i = 0; i < regions.length; i += 2) {
            assertThat(Arrays.copyOfRange(bundle, regions[i], regions[i] + regions[i + 1])).isEqualTo(frames.get(i / 2));
            decoded.add(codec.decode(bundle, regions[i], regions[i + 1]));
        }
        assertThat(decoded).containsExactly(new ReleaseCopy("shop", "a", 1), new Acknowledgement(7),
                new ReleaseCopy("shop", "b", 300));
    }

    @Test
    void aSingleFrameIsNotABundle() {
        byte[] frame = codec.encode(new Acknowledgement(1));
        assertThat(FrameBundle.isBundle(frame, 0, frame.length)).isFalse();
        assertThat(FrameBundle.isBundle(new byte[0], 0, 0)).isFalse();
    }

    @Test
    void malformedBundlesAreRejectedWhole() {
        byte[] good = FrameBundle.encode(List.of(new byte[] {1, 2, 3}, new byte[] {4}));
        assertRejected(Arrays.copyOf(good, good.length - 1), "ends early", "exceeds");
        assertRejected(Arrays.copyOf(good, good.length + 1), "trailing");
        assertRejected(new byte[] {(byte) 0xC8, 1, 0}, "empty");
        assertRejected(new byte[] {(byte) 0xC8, 2, 1, 1, 9}, "format");
        assertRejected(new byte[] {(byte) 0xC8, 1, (byte) 0x81, 0x10}, "exceeds the limit"); // 2049 frames
        assertRejected(new byte[] {(byte) 0xC8, 1, 1, (byte) 0xFF, (byte) 0xFF, 0x03, 1}, "exceeds");
        assertRejected(new byte[] {(byte) 0xC7, 1, 1, 1, 9}, "bad magic");
        assertRejected(new byte[] {(byte) 0xC8}, "ends early");
        byte[] minusOne = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
                (byte) 0xFF, (byte) 0xFF, 0x01}; // a ten-byte varint of 2^64 - 1, -1 as a long
        assertRejected(concat(new byte[] {(byte) 0xC8, 1}, minusOne), "negative");
        assertRejected(concat(new byte[] {(byte) 0xC8, 1, 1}, minusOne, new byte[] {7}), "negative");
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    @Test
    void encodingRefusesNoFramesAndTooMany() {
        assertThatThrownBy(() -> FrameBundle.encode(List.of())).isInstanceOf(IllegalArgumentException.class);
        List<byte[]> tooMany = Collections.nCopies(FrameBundle.MAX_FRAMES + 1, new byte[] {1});
        assertThatThrownBy(() -> FrameBundle.encode(tooMany)).isInstanceOf(IllegalArgumentException.class);
        assertThat(FrameBundle.encode(Collections.nCopies(FrameBundle.MAX_FRAMES, new byte[] {1}))).isNotEmpty();
    }

    private static void assertRejected(byte[] payload, String... reasonOneOf) {
        assertThatThrownBy(() -> FrameBundle.regions(payload, 0, payload.length))
                .isInstanceOf(MalformedMessageException.class)
                .satisfies(e -> assertThat(reasonOneOf).anyMatch(r -> e.getMessage().contains(r)));
    }

    /** The bundle inside a larger array, as a group message's payload may be. */
    private static byte[] withPadding(byte[] bundle) {
        byte[] padded = new byte[bundle.length + 6];
        Arrays.fill(padded, (byte) 0x55);
        System.arraycopy(bundle, 0, padded, 3, bundle.length);
        return padded;
    }
}
