package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.replication.group.FailureDetectorWatch.Outcome;
import io.cohort.replication.group.FailureDetectorWatch.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class FailureDetectorWatchTest {

    private static final Status ALONE = new Status(false, false, "none");
    private static final Status CONNECTED = new Status(true, true, "b");
    private static final Status UNCONNECTED = new Status(true, false, "b");

    private static List<Outcome> run(Status... states) {
        AtomicReference<Status> current = new AtomicReference<>();
        FailureDetectorWatch watch = new FailureDetectorWatch("a", current::get);
        List<Outcome> outcomes = new ArrayList<>();
        for (Status state : states) {
            current.set(state);
            outcomes.add(watch.check());
        }
        return outcomes;
    }

    @Test
    void warnsOnceAfterTwoUnconnectedChecksAndSaysWhenItConnects() {
        assertThat(run(CONNECTED, UNCONNECTED, UNCONNECTED, UNCONNECTED, CONNECTED, CONNECTED))
                .containsExactly(Outcome.QUIET, Outcome.QUIET, Outcome.WARNED, Outcome.QUIET, Outcome.RECOVERED,
                        Outcome.QUIET);
    }

    @Test
    void oneUnconnectedCheckBetweenConnectedOnesIsATransitionNotAProblem() {
        assertThat(run(UNCONNECTED, CONNECTED, UNCONNECTED, CONNECTED)).containsOnly(Outcome.QUIET);
    }

    @Test
    void aMemberAloneHasNothingToWatch() {
        assertThat(run(ALONE, ALONE, ALONE)).containsOnly(Outcome.QUIET);
        assertThat(run(UNCONNECTED, ALONE, UNCONNECTED, ALONE)).containsOnly(Outcome.QUIET);
    }

    @Test
    void afterTheOthersLeftAWarningIsNotFollowedByAFalseRecovery() {
        assertThat(run(UNCONNECTED, UNCONNECTED, ALONE, UNCONNECTED, UNCONNECTED))
                .containsExactly(Outcome.QUIET, Outcome.WARNED, Outcome.QUIET, Outcome.QUIET, Outcome.WARNED);
    }

    @Test
    void theWatchedMemberIsNamedWithoutFdSockInternals() {
        assertThat(FailureDetectorWatch.watched("b [127.0.0.1:7900 DISCONNECTED]")).isEqualTo("b");
        assertThat(FailureDetectorWatch.watched("b [null DISCONNECTED]")).isEqualTo("b");
        assertThat(FailureDetectorWatch.watched("null [null DISCONNECTED]")).isEqualTo("its neighbour in the view");
        assertThat(FailureDetectorWatch.watched(null)).isEqualTo("its neighbour in the view");
    }
}
