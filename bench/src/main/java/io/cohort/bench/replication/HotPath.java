package io.cohort.bench.replication;

import io.cohort.jpetstore.model.Item;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.engine.SnapshotTaker;
import io.cohort.replication.group.BackupCopies;
import io.cohort.replication.wire.MalformedMessageException;
import io.cohort.replication.wire.MessageCodec;
import io.cohort.replication.wire.FrameSeal;
import io.cohort.replication.wire.ReplicationMessage.SessionUpdate;
import io.cohort.replication.wire.WireLimits;
import io.cohort.session.StoredSession;
import io.cohort.session.contract.TestSession;
import io.cohort.session.serial.AllowListFilter;
import io.cohort.session.serial.SessionValueCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;

/**
 * One owner and one holder of one JPetStore session in this thread, wired from the engine's real
 * parts, without a network: the owner snapshots the changed attribute ({@code SessionSnapshot}),
 * updates its shadow and encodes a {@code SessionUpdate} ({@code MessageCodec}) as the group
 * transport's {@code prepare} does; the holder decodes the frame and applies it to its
 * {@code BackupStore}, as the group's message router does. Not thread-safe (one per benchmark thread).
 */
public final class HotPath {

    static final String APPLICATION = "jpetstore";
    /** Jetty's default ids are "node0" + ~26 random characters; 32 characters in all. */
    static final String SESSION_ID = "node01k3x9q2vtm7h4pz8c5wry6bdnfa";
    static final SessionValueCodec VALUES = new SessionValueCodec(HotPath.class.getClassLoader(),
            new AllowListFilter(List.of("io.cohort.**"), 1 << 20, 50, 10_000, HotPath.class.getClassLoader(), c -> { }),
            1 << 20);

    private final ShopChange change;
    private final Serializable[] values;
    private final TestSession session = new TestSession(SESSION_ID, VALUES);
    private final SnapshotTaker snapshots = new SnapshotTaker(new SimpleMeterRegistry(), APPLICATION);
    private final MessageCodec codec;
    /** Seals each frame for the holder, as a {@code <security>} cluster does; null when not sealed. */
    private final FrameSeal seal;
    private final BackupCopies holder = new BackupCopies();
    private static final byte[] OWNER = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    private static final byte[] HOLDER = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
    private StoredSession shadow;
    private int round;

    /** @param sealed frames carry the seal trailer of a {@code <security>} cluster ({@link FrameSeal#TRAILER} bytes) */
    public HotPath(ShopChange change, boolean sealed) {
        this.change = change;
        this.values = new Serializable[] {change.value(0), change.value(1)};
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) 7);
        this.codec = new MessageCodec(WireLimits.DEFAULT);
        this.seal = sealed ? new FrameSeal(key, java.time.Duration.ofMinutes(5), System::currentTimeMillis) : null;
        typicalSession(session).set(change.attribute(), values[0]);
        SessionChange full = snapshots.take(session, true);
        shadow = full.applyTo(null);
        requireApplied(holder.apply(APPLICATION, "n1", full));
    }

    /** The rest of a signed-on shopper's session, so shadow and copy have their real shape. */
    static TestSession typicalSession(TestSession session) {
        byte[] account = new byte[443]; // serializes to 470 B, the shop's account
        return session.set("account", account)
                .set("viewedItem", new Item("EST-6", "K9-BD-01", "Bulldog", "DOGS", "Female Puppy",
                        new BigDecimal("18.50"), 10_000))
                .set("csrfToken", "b7Kq2m9XwL4pR8sT1vN6yZ3cF5hJ0dGa");
    }

    public ShopChange change() {
        return change;
    }

    /** The request changes the attribute: a new value through {@code setAttribute}. */
    public void setAttribute() {
        session.set(change.attribute(), values[++round & 1]);
    }

    /** Owner side, step 1: serialize the changed attribute and take the next version. */
    public SessionChange snapshot() {
        return snapshots.take(session, false);
    }

    /** Owner side, step 2: update the shadow and encode the frame for the holder. */
    public byte[] prepare(SessionChange delta) {
        shadow = delta.applyTo(shadow);
        byte[] frame = codec.encode(new SessionUpdate(APPLICATION, 0, delta));
        return seal == null ? frame : seal.seal(frame, OWNER, HOLDER, false);
    }

    /** Holder side: decode and apply to the backup store. */
    public SessionChange receive(byte[] frame) {
        try {
            int length = seal == null ? frame.length : seal.open(frame, 0, frame.length, OWNER, HOLDER);
            SessionChange received = ((SessionUpdate) codec.decode(frame, 0, length)).change();
            requireApplied(holder.apply(APPLICATION, "n1", received));
            return received;
        } catch (MalformedMessageException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The whole path for one change; returns the frame's size. */
    public int replicateOneChange() {
        setAttribute();
        byte[] frame = prepare(snapshot());
        receive(frame);
        return frame.length;
    }

    /** Decodes without applying (for the decode-only measurement). */
    public SessionUpdate decodeOnly(byte[] frame) {
        try {
            return (SessionUpdate) codec.decode(frame);
        } catch (MalformedMessageException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A frame for the current change without moving the session on (for encode/decode-only measurements). */
    public SessionUpdate sampleUpdate() {
        setAttribute();
        SessionChange delta = snapshot();
        return new SessionUpdate(APPLICATION, 0, delta);
    }

    public byte[] encodeOnly(SessionUpdate update) {
        return codec.encode(update);
    }

    /** The holder's copy agrees with the owner's session (checked after a measurement). */
    public void verify() {
        StoredSession copy = holder.get(APPLICATION, SESSION_ID).orElseThrow();
        if (copy.version() != session.version() || copy.version() != shadow.version()) {
            throw new IllegalStateException("holder at v" + copy.version() + ", owner at v" + session.version());
        }
    }

    private static void requireApplied(String outcome) {
        if (!"APPLIED".equals(outcome)) {
            throw new IllegalStateException("the holder did not apply the change: " + outcome);
        }
    }
}
