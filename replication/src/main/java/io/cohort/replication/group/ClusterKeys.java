package io.cohort.replication.group;

import io.cohort.config.Secret;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The keys a secured group uses, all derived from the cluster secret: a master key by
 * PBKDF2-HMAC-SHA256 (salted with the cluster name, so equal secrets of different clusters give
 * different keys, and slow to guess for a weak secret), then one HMAC-SHA256 expansion per purpose,
 * so no key serves two purposes. The raw secret is not kept.
 */
final class ClusterKeys {

    private static final int ITERATIONS = 100_000;

    private final byte[] encryption;
    private final byte[] seal;
    private final byte[] join;
    private final byte[] tls;

    private ClusterKeys(byte[] encryption, byte[] seal, byte[] join, byte[] tls) {
        this.encryption = encryption;
        this.seal = seal;
        this.join = join;
        this.tls = tls;
    }

    static ClusterKeys derive(Secret secret, String clusterName) {
        try {
            PBEKeySpec spec = new PBEKeySpec(secret.reveal().toCharArray(),
                    ("cohort-cluster:" + clusterName).getBytes(StandardCharsets.UTF_8), ITERATIONS, 256);
            byte[] master = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
            spec.clearPassword();
            byte[] encryption = java.util.Arrays.copyOf(expand(master, "encrypt"), 32);
            return new ClusterKeys(encryption, expand(master, "seal"), expand(master, "join"), expand(master, "tls"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot derive the cluster keys: " + e, e);
        }
    }

    /** AES-256 key for JGroups SYM_ENCRYPT. */
    SecretKeySpec encryptionKey() {
        return new SecretKeySpec(encryption, "AES");
    }

    /** Key of the HMAC that seals every replication frame. */
    byte[] sealKey() {
        return seal.clone();
    }

    /** Key of the HMAC that proves a joining member knows the secret. */
    byte[] joinKey() {
        return join.clone();
    }

    /** Seed of the private key every member's TLS connections prove themselves with ({@link TlsIdentity}). */
    byte[] tlsSeed() {
        return tls.clone();
    }

    private static byte[] expand(byte[] master, String purpose) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(master, "HmacSHA256"));
        return mac.doFinal(("cohort-" + purpose + "-v1").getBytes(StandardCharsets.UTF_8));
    }
}
