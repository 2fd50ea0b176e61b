package io.cohort.bench.study.run;

import io.cohort.bench.study.driver.LoadStats.SecondCounts;
import io.cohort.bench.study.model.FailoverOutcome;
import java.util.List;

/**
 * Turns the per-second counts around a node kill into a {@link FailoverOutcome}: sessions lost and errors from
 * the kill on, and the time until throughput was back to at least {@value #RECOVERED} of its mean before the
 * kill, scaled to the surviving nodes, for {@value #STABLE_SECONDS} consecutive seconds without an error or a session
 * found lost. Throughput counts the pages not answered with an error ({@link SecondCounts#goodPages}): a balancer's 502
 * or 503 page during the failover, or a page that ended its scenario as an error, is no recovery. The survivors' share
 * alone would not do: the load is a closed loop split over the balancers, so the users of a balancer that kept
 * failing leave the others at about that share from the first second; a second in which any user still failed, or
 * found their session lost, is not recovered.
 */
final class FailoverAnalysis {

    static final double RECOVERED = 0.9;
    static final int STABLE_SECONDS = 3;

    private FailoverAnalysis() {
    }

    /**
     * @param window       the measurement window's seconds (0, 1, 2, ...)
     * @param killedNode   the node killed
     * @param killedAt     when, in seconds since the start of the window
     * @param nodes        nodes before the kill
     */
    static FailoverOutcome analyse(List<SecondCounts> window, String killedNode, double killedAt, int nodes) {
        long killSecond = (long) Math.floor(killedAt);
        double before = window.stream().filter(s -> s.second() < killSecond).mapToLong(SecondCounts::goodPages)
                .average().orElse(0);
        double target = before * RECOVERED * (nodes - 1) / nodes;
        long lost = window.stream().filter(s -> s.second() >= killSecond).mapToLong(SecondCounts::sessionsLost).sum();
        long errors = window.stream().filter(s -> s.second() >= killSecond).mapToLong(SecondCounts::errors).sum();
        Double recovery = null;
        int streak = 0;
        long previous = killSecond;
        for (SecondCounts second : window) {
            if (second.second() <= killSecond) {
                continue; // the second of the kill is partly before it
            }
            boolean consecutive = second.second() == previous + 1; // a second missing from the series served nothing
            previous = second.second();
            boolean recovered = second.goodPages() >= target && second.errors() == 0 && second.sessionsLost() == 0;
            streak = recovered ? (consecutive ? streak + 1 : 1) : 0;
            if (streak == STABLE_SECONDS) {
                double recoveredAt = second.second() - (STABLE_SECONDS - 1);
                recovery = Math.max(0, recoveredAt - killedAt);
                break;
            }
        }
        return new FailoverOutcome(killedNode, killedAt, lost, errors, recovery);
    }
}
