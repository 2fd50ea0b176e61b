package io.cohort.bench;

import io.cohort.bench.replication.ShopChange;
import io.cohort.bench.replication.WireSize;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.openjdk.jmh.results.RunResult;

/** The Markdown summary of one run of the replication hot-path benchmarks. */
final class HotPathReport {

    private final Map<String, Map<ShopChange, double[]>> scores = new HashMap<>();
    private final List<WireSize> sizes;
    private final Map<ShopChange, Properties> loopback;
    private final MachineInfo machine;
    private final String loadBefore;
    private final String loadAfter;
    private final Instant started;
    private final String settings;
    private final boolean quick;

    HotPathReport(Collection<RunResult> results, List<WireSize> sizes, Map<ShopChange, Properties> loopback,
            MachineInfo machine, String loadBefore, String loadAfter, Instant started, String settings, boolean quick) {
        for (RunResult result : results) {
            String label = result.getParams().getBenchmark();
            String method = label.substring(label.lastIndexOf('.') + 1);
            ShopChange change = ShopChange.valueOf(result.getParams().getParam("change"));
            scores.computeIfAbsent(method, m -> new HashMap<>()).put(change,
                    new double[] {result.getPrimaryResult().getScore(), result.getPrimaryResult().getScoreError()});
        }
        this.sizes = sizes;
        this.loopback = loopback;
        this.machine = machine;
        this.loadBefore = loadBefore;
        this.loadAfter = loadAfter;
        this.started = started;
        this.settings = settings;
        this.quick = quick;
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Replication hot path — ").append(started).append("\n\n");
        if (quick) {
            md.append("> **Quick smoke run** (`--quick`): iterations too short to quote.\n\n");
        }
        md.append("""
                Command: `bench/run-jmh.sh` (JMH 1.37: %s; JSON in `jmh.json`)

                ## Machine
                %s- Load average (1/5/15 min) before: %s, after: %s. Other builds may have been running.

                ## What is measured
                One JPetStore change (one attribute set in a request) going through the engine's real classes:
                `SessionSnapshot` (serialize the changed value, next version), the owner's shadow update and
                `MessageCodec.encode` of a `SessionUpdate` (what `GroupSessionTransport.prepare` does), then at the
                holder `MessageCodec.decode` and `BackupStore.apply` (what `MessageRouter` does). The session is a
                `TestSession` (cluster-core's test `LiveSession`) holding a signed-on shopper's attributes; values
                are the shop's own model objects. `replicate*` run the whole path **without a network**, in one
                thread; `replicateSync` runs it **over JGroups TCP on 127.0.0.1** between two members in one JVM
                (`ReplicatingSessionStore`, onRequestEnd, modifiedAttributes, synchronous, write-quota 1): each
                change waits for the holder's acknowledgement, so it is a round-trip rate, and it uses threads of
                both members (not one core).

                """.formatted(settings, machine.markdown(), loadBefore, loadAfter));

        md.append("## Throughput, changes per second of one thread (± 99.9% CI)\n\n");
        md.append("| step | 1 KiB value | add to cart (cart) | search (searchResults) |\n|---|---|---|---|\n");
        row(md, "replicate — whole path, no network", "replicate");
        row(md, "replicateSealed — same, HMAC-sealed frames", "replicateSealed");
        row(md, "snapshot — setAttribute + serialize + version", "snapshot");
        row(md, "encode — MessageCodec.encode", "encode");
        row(md, "decode — MessageCodec.decode", "decode");
        row(md, "replicateSync — JGroups TCP loopback, sync ack", "replicateSync");
        md.append("\n");

        md.append("### Ratios (same run)\n\n");
        md.append("| ratio | 1 KiB | add to cart | search |\n|---|---|---|---|\n");
        ratioRow(md, "snapshot time / whole path time", "replicate", "snapshot");
        ratioRow(md, "encode time / whole path time", "replicate", "encode");
        ratioRow(md, "decode time / whole path time", "replicate", "decode");
        ratioRow(md, "sealed path time / plain path time", "replicate", "replicateSealed");
        ratioRow(md, "loopback round trip time / in-process path time", "replicate", "replicateSync");
        md.append("\n");

        md.append("## Bytes on the wire per change\n\n");
        md.append("""
                | change | serialized value(s) | frame | framing | framing % | sealed frame | sealed framing % | loopback: bytes sent per change (engine meter) |
                |---|---|---|---|---|---|---|---|
                """);
        for (WireSize size : sizes) {
            md.append(String.format(Locale.ROOT, "| %s | %,d B | %,d B | %,d B | %.1f %% | %,d B | %.1f %% | %s |%n",
                    label(size.change()), size.valueBytes(), size.frameBytes(), size.framingBytes(),
                    size.framingPercent(), size.sealedBytes(), size.sealedFramingPercent(), loopbackBytes(size.change())));
        }
        md.append("""

                Frame = what `MessageCodec` hands to JGroups (application name, 32-character session id, version,
                times, attribute name, length prefixes and the value). JGroups adds its own message headers
                (transport, UNICAST3) and TCP/IP its own; those are not counted here. The engine meter
                `cohort.replication.bytes{direction=sent}` counts the frames, so it matches the frame column.

                """);
        WireSize oneKib = sizes.stream().filter(s -> s.change() == ShopChange.ONE_KIB).findFirst().orElseThrow();
        boolean met = oneKib.framingPercent() <= ReplicationHotPathBench.framingTarget();
        md.append(String.format(Locale.ROOT, "**Target: framing ≤ %.0f %% of the payload for a 1 KiB change — %s** "
                        + "(%.1f %%, %d bytes; sealed %.1f %%).%n", ReplicationHotPathBench.framingTarget(),
                met ? "met" : "NOT met", oneKib.framingPercent(), oneKib.framingBytes(), oneKib.sealedFramingPercent()));
        return md.toString();
    }

    private void row(StringBuilder md, String title, String method) {
        Map<ShopChange, double[]> byChange = scores.get(method);
        if (byChange == null) {
            return;
        }
        md.append("| ").append(title);
        for (ShopChange change : ShopChange.values()) {
            double[] s = byChange.get(change);
            md.append(s == null ? " | – " : String.format(Locale.ROOT, " | %,.0f ± %,.0f", s[0], s[1]));
        }
        md.append(" |\n");
    }

    /** Time of {@code part} per op relative to time of {@code whole} per op (= whole score / part score). */
    private void ratioRow(StringBuilder md, String title, String whole, String part) {
        Map<ShopChange, double[]> w = scores.get(whole);
        Map<ShopChange, double[]> p = scores.get(part);
        if (w == null || p == null) {
            return;
        }
        md.append("| ").append(title);
        for (ShopChange change : ShopChange.values()) {
            md.append(w.get(change) == null || p.get(change) == null ? " | – "
                    : String.format(Locale.ROOT, " | %.2f", w.get(change)[0] / p.get(change)[0]));
        }
        md.append(" |\n");
    }

    private String loopbackBytes(ShopChange change) {
        Properties p = loopback.get(change);
        if (p == null) {
            return "–";
        }
        double changes = Double.parseDouble(p.getProperty("changes", "0"));
        double bytes = Double.parseDouble(p.getProperty("bytes", "0"));
        return changes == 0 ? "–" : String.format(Locale.ROOT, "%,.0f B (%,.0f changes, %s sync timeouts)",
                bytes / changes, changes, p.getProperty("syncTimeouts", "?"));
    }

    private static String label(ShopChange change) {
        return switch (change) {
            case ONE_KIB -> "1 KiB value (`blob`)";
            case ADD_TO_CART -> "add to cart (`cart`, 3 lines)";
            case SEARCH -> "search (`searchResults`, 94 products)";
        };
    }
}
