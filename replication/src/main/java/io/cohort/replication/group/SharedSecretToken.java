package io.cohort.replication.group;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jgroups.Address;
import org.jgroups.Message;
import org.jgroups.auth.AuthToken;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.util.Util;

/**
 * The JGroups {@code AUTH} token of a secured Cohort group: a joining (or merging) member proves it
 * knows the cluster secret without revealing it. The token carries a timestamp, a random nonce and
 * an HMAC-SHA256 over the joiner's address, the timestamp and the nonce, keyed by a key derived from
 * the secret; the coordinator recomputes the HMAC for the address the request came from and accepts
 * it only within {@link #MAX_CLOCK_SKEW} of its own clock, and only once: the receiving member remembers
 * the nonce of every token it accepted until that token expires ({@link AcceptedNonces}). A captured token
 * is useless for another address, for a second use and once expired. It travels in the clear even with
 * encryption on (a join request has no payload, and {@code SYM_ENCRYPT} encrypts payloads only), so a
 * token taken off the wire and delivered before the genuine one is accepted, for that one request from
 * that address; even then the replayer gets into the view but not into replication, whose messages need
 * the secret ({@code FrameSeal}).
 */
public final class SharedSecretToken extends AuthToken {

    /** How far apart the joiner's and the coordinator's clocks (plus transit) may be. */
    static final Duration MAX_CLOCK_SKEW = Duration.ofMinutes(5);
    /** JGroups magic number of this class (ids below 1024 belong to JGroups). */
    static final short MAGIC = 3117;
    private static final int NONCE = 16;
    private static final int MAC = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    static {
        ClassConfigurator.addIfAbsent(MAGIC, SharedSecretToken.class);
    }

    private final byte[] key;
    private final AcceptedNonces accepted = new AcceptedNonces(MAX_CLOCK_SKEW);
    private long timestamp;
    private byte[] nonce = new byte[NONCE];
    private byte[] mac = new byte[MAC];

    /** For JGroups, which creates a token to read a received one into. */
    public SharedSecretToken() {
        this.key = null;
    }

    SharedSecretToken(byte[] joinKey) {
        this.key = joinKey.clone();
    }

    /** Makes sure the class is registered with JGroups before any token is written or read. */
    static void register() {
        // the static initializer does the work
    }

    @Override
    public String getName() {
        return SharedSecretToken.class.getName();
    }

    @Override
    public int size() {
        return Long.BYTES + NONCE + MAC;
    }

    @Override
    public void writeTo(DataOutput out) throws IOException {
        long now = System.currentTimeMillis();
        byte[] freshNonce = new byte[NONCE];
        RANDOM.nextBytes(freshNonce);
        out.writeLong(now);
        out.write(freshNonce);
        out.write(key == null ? new byte[MAC] : mac(key, auth.getAddress(), now, freshNonce));
    }

    @Override
    public void readFrom(DataInput in) throws IOException {
        timestamp = in.readLong();
        in.readFully(nonce);
        in.readFully(mac);
    }

    @Override
    public boolean authenticate(AuthToken token, Message message) {
        if (token == this && key != null) {
            // A message this member sent to itself (e.g. a coordinator's own merge request) is not
            // serialized: the header carries this very instance, whose proof was only written to a
            // stream. Only a local instance can be identical to ours; received tokens are new objects.
            return true;
        }
        if (key == null || !(token instanceof SharedSecretToken other) || message.getSrc() == null) {
            return false;
        }
        long skew = Math.abs(System.currentTimeMillis() - other.timestamp);
        if (skew > MAX_CLOCK_SKEW.toMillis()) {
            return false;
        }
        try {
            return MessageDigest.isEqual(mac(key, message.getSrc(), other.timestamp, other.nonce), other.mac)
                    && accepted.firstUse(other.nonce, other.timestamp);
        } catch (IOException e) {
            return false;
        }
    }

    private static byte[] mac(byte[] key, Address address, long timestamp, byte[] nonce) throws IOException {
        try {
            Mac hmac = Mac.getInstance("HmacSHA256");
            hmac.init(new SecretKeySpec(key, "HmacSHA256"));
            hmac.update(Util.streamableToByteBuffer(address));
            for (int shift = 56; shift >= 0; shift -= 8) {
                hmac.update((byte) (timestamp >>> shift));
            }
            hmac.update(nonce);
            return hmac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IOException("HmacSHA256 unavailable", e);
        } catch (Exception e) {
            throw new IOException("cannot encode address " + address, e);
        }
    }

    @Override
    public String toString() {
        return "SharedSecretToken";
    }
}
