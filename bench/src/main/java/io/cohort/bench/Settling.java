package io.cohort.bench;

import io.cohort.bench.InterleavedBench.Pair;
import io.cohort.bench.study.run.InterleavedComparison.Window;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Whether the recorded part of an interleaved run was in steady state: the first and the second half of each side's
 * recorded turns compared by node CPU per page, and the pairs' throughput ratio by half. A JVM still compiling its
 * hot code (the JIT) needs less CPU per page turn after turn; a side with more code to compile (replication's and
 * JGroups' on top of the shop's) gets there later, so while it does, the run judges B's warm-up, not its cost.
 *
 * @param cpuFirstHalf  median node CPU ms per page of A's and of B's first half of recorded turns
 * @param cpuSecondHalf the same for the second half
 * @param ratioFirstHalf  median B/A throughput ratio of the first half of the pairs
 * @param ratioSecondHalf median B/A throughput ratio of the second half of the pairs
 */
public record Settling(double[] cpuFirstHalf, double[] cpuSecondHalf, double ratioFirstHalf, double ratioSecondHalf) {

    /** A fall in node CPU per page from one half to the next beyond this share says the side was still warming up. */
    public static final double STILL_WARMING = 0.05;

    /** @param recorded the recorded turns, A's at even indexes; {@code pairs} their B turns with A's around them */
    public static Settling of(List<Window> recorded, List<Pair> pairs) {
        double[] first = new double[2];
        double[] second = new double[2];
        for (int side = 0; side < 2; side++) {
            int s = side;
            double[] perPage = recorded.stream().filter(w -> w.index() % 2 == s)
                    .mapToDouble(Window::nodeCpuMillisPerPage).toArray();
            first[side] = medianOfHalf(perPage, true);
            second[side] = medianOfHalf(perPage, false);
        }
        double[] ratios = pairs.stream().mapToDouble(Pair::ratio).toArray();
        return new Settling(first, second, medianOfHalf(ratios, true), medianOfHalf(ratios, false));
    }

    /** The median of the first or the last half of the values (the middle one of an odd count in neither). */
    private static double medianOfHalf(double[] values, boolean first) {
        int half = values.length / 2;
        return Median.median(first ? Arrays.copyOfRange(values, 0, half)
                : Arrays.copyOfRange(values, values.length - half, values.length));
    }

    /** How much less CPU per page a side's nodes needed in the second half than in the first (0.1 = 10 % less). */
    public double cpuFall(int side) {
        return 1 - cpuSecondHalf[side] / cpuFirstHalf[side];
    }

    /** Whether either side's node CPU per page still fell by more than {@link #STILL_WARMING} between the halves. */
    public boolean stillWarming() {
        return cpuFall(0) > STILL_WARMING || cpuFall(1) > STILL_WARMING;
    }

    /** The change of a side's CPU per page from the first half to the second, in percent (never "-0.0"). */
    private double percentChange(int side) {
        return -100 * cpuFall(side) + 0.0;
    }

    /** A paragraph for the summary; empty when there are too few recorded turns to split. */
    String paragraph(String a, String b) {
        if (Double.isNaN(cpuFirstHalf[0]) || Double.isNaN(cpuFirstHalf[1]) || Double.isNaN(ratioFirstHalf)) {
            return "";
        }
        String halves = String.format(Locale.ROOT, "Node CPU per page, first → second half of the recorded turns: "
                + "%s %.3f → %.3f ms (%+.1f %%), %s %.3f → %.3f ms (%+.1f %%); %s / %s by half of the pairs: "
                + "%.1f %% → %.1f %%.", a, cpuFirstHalf[0], cpuSecondHalf[0], percentChange(0), b, cpuFirstHalf[1],
                cpuSecondHalf[1], percentChange(1), b, a, 100 * ratioFirstHalf, 100 * ratioSecondHalf);
        if (!stillWarming()) {
            return String.format(Locale.ROOT, "%nSteady state: %s Neither side's CPU per page fell by more than "
                    + "%.0f %%.%n", halves, 100 * STILL_WARMING);
        }
        return String.format(Locale.ROOT, "%n**Not in steady state:** %s A side whose nodes still need less CPU per "
                + "page turn after turn is still compiling its code (JIT); the median above mixes its warm-up into the "
                + "verdict, and the second half's ratio is nearer the steady state. Run more `--warmup-pairs`.%n",
                halves);
    }
}
