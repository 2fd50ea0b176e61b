package io.cohort.bench.replication;

import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.session.contract.TestSession;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
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
 * One change replicated synchronously between two members over JGroups TCP on loopback: the
 * request thread ends a request that set the attribute ({@code requestCompleted} under the session's
 * lock), the engine snapshots, prepares and sends, and waits until the holder has applied it and
 * acknowledged. One thread, so this is the round trip of one change, not the members' capacity. It
 * warms up longer than the in-process benchmarks: with 3 × 2 s its rate still rose during measurement.
 *
 * <p>At the end of a trial the owner's replication meters (frames sent, bytes sent) are written to
 * {@code <cohort.bench.out>/loopback-<change>.properties} for the report.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 8, time = 2) // JGroups' and both members' threads keep getting faster for ~15 s
@Measurement(iterations = 5, time = 2)
public class LoopbackBenchmark {

    @Param({"ONE_KIB", "ADD_TO_CART", "SEARCH"})
    public ShopChange change;

    private LoopbackPair pair;
    private TestSession session;
    private Serializable[] values;
    private int round;
    private double bytesBefore;
    private double changesBefore;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        pair = new LoopbackPair();
        values = new Serializable[] {change.value(0), change.value(1)};
        session = HotPath.typicalSession(new TestSession(HotPath.SESSION_ID, HotPath.VALUES));
        session.set(change.attribute(), values[0]);
        synchronized (session) {
            pair.store().requestCompleted(session); // the first change of a session is a full copy
        }
        bytesBefore = pair.ownerCounter(ReplicationMetrics.BYTES);
        changesBefore = pair.ownerCounter(ReplicationMetrics.CHANGES);
    }

    @Benchmark
    public long replicateSync() {
        session.set(change.attribute(), values[++round & 1]);
        synchronized (session) {
            pair.store().requestCompleted(session);
        }
        return session.version();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        try {
            long held = pair.copyAtHolder(HotPath.SESSION_ID).orElseThrow().version();
            if (held != session.version()) {
                throw new IllegalStateException("holder at v" + held + ", owner at v" + session.version());
            }
            writeMeters();
        } finally {
            pair.close();
        }
    }

    private void writeMeters() {
        String dir = System.getProperty("cohort.bench.out");
        if (dir == null) {
            return;
        }
        double changes = pair.ownerCounter(ReplicationMetrics.CHANGES) - changesBefore;
        double bytes = pair.ownerCounter(ReplicationMetrics.BYTES) - bytesBefore;
        String text = String.format(Locale.ROOT, "changes=%.0f%nbytes=%.0f%nsyncTimeouts=%.0f%n", changes, bytes,
                pair.syncTimeouts());
        try {
            Files.writeString(Path.of(dir, "loopback-" + change + ".properties"), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
