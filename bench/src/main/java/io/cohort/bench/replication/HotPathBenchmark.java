package io.cohort.bench.replication;

import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.wire.ReplicationMessage.SessionUpdate;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The replication hot path of one change, in one thread, without a network: {@code replicate} is
 * snapshot + shadow + encode at the owner and decode + apply at the holder; the other methods
 * measure its steps on their own. Throughput in changes per second of one thread (one core).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class HotPathBenchmark {

    @Param({"ONE_KIB", "ADD_TO_CART", "SEARCH"})
    public ShopChange change;

    private HotPath path;
    private HotPath sealedPath;
    private HotPath snapshotOnly;
    private SessionUpdate update;
    private byte[] frame;

    @Setup(Level.Trial)
    public void setUp() {
        path = new HotPath(change, false);
        sealedPath = new HotPath(change, true);
        snapshotOnly = new HotPath(change, false);
        update = new HotPath(change, false).sampleUpdate();
        frame = path.encodeOnly(update);
    }

    @TearDown(Level.Trial)
    public void check() {
        path.verify();
        sealedPath.verify();
    }

    /** The whole path: owner snapshot + shadow + encode, holder decode + apply. */
    @Benchmark
    public int replicate() {
        return path.replicateOneChange();
    }

    /** The same with the HMAC seal of a secured cluster (sealed at the owner, verified at the holder). */
    @Benchmark
    public int replicateSealed() {
        return sealedPath.replicateOneChange();
    }

    /** Owner step 1 alone: setAttribute + serialize the changed value + next version. */
    @Benchmark
    public SessionChange snapshot() {
        snapshotOnly.setAttribute();
        return snapshotOnly.snapshot();
    }

    /** Wire step alone: encode a prepared SessionUpdate. */
    @Benchmark
    public byte[] encode() {
        return path.encodeOnly(update);
    }

    /** Holder step alone: decode a frame (without applying it). */
    @Benchmark
    public SessionUpdate decode() {
        return path.decodeOnly(frame);
    }
}
