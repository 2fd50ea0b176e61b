package io.cohort.bench.study.run;

import io.cohort.bench.study.model.ExperimentResult;
import io.cohort.bench.study.model.ExperimentSpec;
import io.cohort.bench.study.model.Summary;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * The run's progress on the console. On a terminal: a progress bar over the run's planned seconds with the
 * current experiment, phase and live pages/s, and a line per finished experiment above it. Otherwise (output to
 * a file or a pipe): plain lines only, one when an experiment starts, every 10 s while it runs, and when it ends.
 */
final class ConsoleProgress implements Progress {

    /** What starting and stopping a cluster takes, roughly, for the bar's time estimate. */
    static final Duration CLUSTER_OVERHEAD = Duration.ofSeconds(15);
    private static final int PLAIN_TICK_SECONDS = 10;

    private final PrintStream out;
    private final ProgressBar bar;
    private final List<ExperimentSpec> plan;
    private long done;
    private long base;
    private long experimentStart;
    private String label = "";
    private String shortLabel = "";
    private String phase = "";
    private int ticks;

    ConsoleProgress(PrintStream out, List<ExperimentSpec> plan, boolean terminal) {
        this.out = out;
        this.plan = List.copyOf(plan);
        long total = plan.stream().mapToLong(ConsoleProgress::plannedSeconds).sum();
        this.bar = terminal ? new ProgressBarBuilder().setTaskName("bench").setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII).setUnit("s", 1).setUpdateIntervalMillis(500).continuousUpdate()
                .build() : null;
    }

    static long plannedSeconds(ExperimentSpec spec) {
        return CLUSTER_OVERHEAD.plus(spec.warmup()).plus(spec.duration()).toSeconds();
    }

    @Override
    public synchronized void experimentStarted(int index, int count, ExperimentSpec spec) {
        base = done;
        experimentStart = System.nanoTime();
        label = String.format(Locale.ROOT, "[%d/%d] %s", index + 1, count, spec.id());
        shortLabel = String.format(Locale.ROOT, "%d/%d %s", index + 1, count,
                spec.id().replaceFirst("^cohort-", "").replace("-medium", "").replace("-failover", " kill"));
        ticks = 0;
        if (bar == null) {
            out.printf("%s: %d node(s), pattern %s, %d users (%s/node)%s%n", label, spec.nodes(), spec.pattern(),
                    spec.users(), spec.usersPerNode(), spec.failover() ? ", failover" : "");
        }
        phase("starting");
    }

    @Override
    public synchronized void phase(String text) {
        phase = text;
        if (bar != null) {
            bar.setExtraMessage(shortLabel + " " + phase);
            advance();
        } else if (!text.equals("starting")) {
            out.println("  " + text);
        }
    }

    @Override
    public synchronized void tick(long pagesLastSecond, long errorsSoFar, long sessionsLostSoFar) {
        String figures = String.format(Locale.ROOT, "%d pages/s, %d errors, %d sessions lost", pagesLastSecond,
                errorsSoFar, sessionsLostSoFar);
        if (bar != null) {
            bar.setExtraMessage(String.format(Locale.ROOT, "%s %s: %d p/s, %d err, %d lost", shortLabel, phase,
                    pagesLastSecond, errorsSoFar, sessionsLostSoFar));
            advance();
        } else if (++ticks % PLAIN_TICK_SECONDS == 0) {
            out.println("  " + phase + ": " + figures);
        }
    }

    private void advance() {
        long current = plan.isEmpty() ? 0 : (System.nanoTime() - experimentStart) / 1_000_000_000L;
        bar.stepTo(Math.min(base + current, bar.getMax()));
    }

    @Override
    public synchronized void experimentFinished(ExperimentResult result) {
        done = base + plannedSeconds(result.spec());
        Summary s = result.summary();
        String line = String.format(Locale.ROOT,
                "%s: %.1f pages/s, mean %.0f ms, p99 %.0f ms, %d scenarios, %d sessions lost, %d errors, "
                        + "CPU %.0f %%/node, %s%s",
                label, s.pagesPerSecond(), s.meanMs(), s.p99Ms(), s.scenarios(), s.sessionsLost(), s.errors(),
                s.cpuPercentPerNode(), s.interconnectUnmeasured() ? "interconnect not measured"
                        : String.format(Locale.ROOT, "%.1f KB/s/node", s.interconnectKBpsPerNode()),
                result.failover() == null ? "" : String.format(Locale.ROOT,
                        "; failover: %s killed at %.1f s, %d sessions lost, %d errors after, recovered %s",
                        result.failover().killedNode(), result.failover().killedAtSecond(),
                        result.failover().sessionsLost(), result.failover().errorsAfterKill(),
                        result.failover().recoverySeconds() == null ? "never"
                                : String.format(Locale.ROOT, "after %.1f s", result.failover().recoverySeconds())));
        print(line);
    }

    @Override
    public synchronized void experimentFailed(ExperimentSpec spec, String reason) {
        done = base + plannedSeconds(spec);
        print(label + ": FAILED: " + reason);
    }

    private void print(String line) {
        if (bar != null) {
            bar.stepTo(Math.min(done, bar.getMax()));
            // the bar redraws itself on the line below
            out.print("\r\033[K");
        }
        out.println(line);
        out.flush();
    }

    @Override
    public synchronized void close() {
        if (bar != null) {
            bar.stepTo(bar.getMax());
            bar.close();
        }
    }
}
