package io.cohort.jpetstore.data;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.spec.KeySpec;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * PBKDF2-HMAC-SHA256 password hashes from the JDK, stored as {@code pbkdf2-sha256:<iterations>:<salt>:<hash>}
 * (salt and hash in Base64) so the iteration count can differ per account.
 */
public final class PasswordHasher {
    /** Iterations for accounts that people create and for the demo accounts. */
    public static final int DEFAULT_ITERATIONS = 100_000;
    private static final String SCHEME = "pbkdf2-sha256";
    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Verified against when the account does not exist, so that a miss costs as much as a wrong password. */
    private static final String DECOY = hash("decoy password", DEFAULT_ITERATIONS);

    private PasswordHasher() {
    }

    public static String hash(String password, int iterations) {
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        Base64.Encoder b64 = Base64.getEncoder();
        return SCHEME + ":" + iterations + ":" + b64.encodeToString(salt) + ":"
                + b64.encodeToString(derive(password, salt, iterations));
    }

    public static String hash(String password) {
        return hash(password, DEFAULT_ITERATIONS);
    }

    /** Constant-time check of a password against a stored hash; a malformed hash never matches. */
    public static boolean matches(String password, String stored) {
        String[] parts = stored == null ? new String[0] : stored.split(":");
        if (parts.length != 4 || !SCHEME.equals(parts[0])) {
            return false;
        }
        try {
            int iterations = Integer.parseInt(parts[1]);
            byte[] salt = Base64.getDecoder().decode(parts[2]);
            byte[] expected = Base64.getDecoder().decode(parts[3]);
            return MessageDigest.isEqual(expected, derive(password, salt, iterations));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Spends the time of one verification without a stored hash to compare to. */
    public static void verifyDecoy(String password) {
        matches(password, DECOY);
    }

    private static byte[] derive(String password, byte[] salt, int iterations) {
        KeySpec spec = new PBEKeySpec(password.toCharArray(), salt, iterations, HASH_BITS);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no PBKDF2WithHmacSHA256", e);
        }
    }
}
