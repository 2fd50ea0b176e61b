package io.cohort.replication.wire;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Authenticates frames with a truncated HMAC-SHA256 over the whole frame, keyed by a key derived
 * from the cluster secret. A member without the secret cannot produce a frame the others accept,
 * whether or not the group also encrypts its traffic. Thread-safe.
 */
public final class MessageSeal {

    /** Bytes appended to each frame: 128 bits of the HMAC. */
    public static final int LENGTH = 16;
    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;
    private final ThreadLocal<Mac> macs;

    /** @param keyBytes at least 32 bytes of key material (not the raw secret: a derived key) */
    public MessageSeal(byte[] keyBytes) {
        if (keyBytes.length < 32) {
            throw new IllegalArgumentException("a seal key needs at least 32 bytes");
        }
        this.key = new SecretKeySpec(keyBytes.clone(), ALGORITHM);
        this.macs = ThreadLocal.withInitial(this::newMac);
        newMac(); // fail at construction, not at the first message
    }

    /** The seal of {@code frame[0, length)}. */
    byte[] seal(byte[] frame, int length) {
        Mac mac = macs.get();
        mac.update(frame, 0, length);
        return Arrays.copyOf(mac.doFinal(), LENGTH);
    }

    /** Whether the last {@link #LENGTH} bytes of the region seal the bytes before them. */
    boolean verify(byte[] frame, int offset, int length) {
        if (length < LENGTH) {
            return false;
        }
        Mac mac = macs.get();
        mac.update(frame, offset, length - LENGTH);
        byte[] expected = Arrays.copyOf(mac.doFinal(), LENGTH);
        byte[] actual = Arrays.copyOfRange(frame, offset + length - LENGTH, offset + length);
        return MessageDigest.isEqual(expected, actual);
    }

    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
