package io.cohort.bench.study.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cohort.bench.study.model.ExperimentSpec;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class StudyPlanTest {

    @Test
    void quickCoversEveryPatternAtTwoNodesTheBaselineAndTheMustShowFailovers() {
        List<ExperimentSpec> quick = StudyPlan.quick().experiments();

        assertThat(quick.get(0).id()).isEqualTo("cohort-none-n1-medium");
        assertThat(quick.stream().filter(s -> s.nodes() == 2 && !s.failover()).map(ExperimentSpec::pattern))
                .containsExactlyElementsOf(StudyPlan.ALL_PATTERNS);
        assertThat(quick.stream().filter(ExperimentSpec::failover).map(ExperimentSpec::pattern))
                .containsExactly("2211", "2212");
        assertThat(quick).extracting(ExperimentSpec::id).doesNotHaveDuplicates();
        assertThat(quick).allSatisfy(s -> assertThat(s.usersPerNode()).isEqualTo(LoadLevel.MEDIUM_USERS));
        Duration planned = quick.stream().map(s -> s.warmup().plus(s.duration()))
                .reduce(Duration.ZERO, Duration::plus);
        assertThat(planned).isLessThanOrEqualTo(Duration.ofMinutes(5)); // the rest of the 10 minutes: cluster starts
    }

    @Test
    void fullIsTheStudysMatrixAtOneTwoAndFourNodes() {
        List<ExperimentSpec> full = StudyPlan.full().experiments();

        // per load: the baseline + 14 patterns at 2 and at 4 nodes; then the failovers
        assertThat(full).hasSize(2 * (1 + 2 * StudyPlan.ALL_PATTERNS.size()) + 2);
        assertThat(full).filteredOn(s -> s.nodes() == 1).extracting(ExperimentSpec::pattern).containsOnly("none");
        assertThat(full).filteredOn(s -> s.load().equals("high") && s.nodes() == 4).hasSize(14);
        assertThat(full).filteredOn(ExperimentSpec::failover).allSatisfy(s -> assertThat(s.nodes()).isEqualTo(4));
    }

    @Test
    void roundsRepeatThePatternsAtTwoOrMoreNodesInAlternatingOrderAndTheBaselineAndFailoverOnce() {
        Duration s = Duration.ofSeconds(1);
        StudyPlan plan = new StudyPlan("custom", List.of(2), List.of(LoadLevel.parse("200")), List.of("none", "2211"),
                List.of("2212"), s, s, s, 3);

        assertThat(plan.experiments()).extracting(e -> e.id() + " " + e.round()).containsExactly(
                "cohort-none-n1-200 1",
                "cohort-none-n2-200-r1 1", "cohort-2211-n2-200-r1 1",
                "cohort-2211-n2-200-r2 2", "cohort-none-n2-200-r2 2",
                "cohort-none-n2-200-r3 3", "cohort-2211-n2-200-r3 3",
                "cohort-2212-n2-200-failover 1");
        assertThat(StudyPlan.quick().experiments()).allSatisfy(e -> assertThat(e.round()).isEqualTo(1));
        assertThat(StudyPlan.quick().experiments()).noneMatch(e -> e.id().contains("-r1"));
    }

    @Test
    void rejectsWhatCannotRun() {
        Duration s = Duration.ofSeconds(1);
        List<LoadLevel> medium = List.of(LoadLevel.parse("medium"));
        assertThatThrownBy(() -> new StudyPlan("custom", List.of(2), medium, List.of("2219"), List.of(), s, s, s))
                .hasMessageContaining("invalid replication pattern '2219'");
        assertThatThrownBy(() -> new StudyPlan("custom", List.of(2), medium, List.of("none"), List.of("none"), s, s, s))
                .hasMessageContaining("failover experiment needs a replicating pattern");
        assertThatThrownBy(() -> new StudyPlan("custom", List.of(0), medium, List.of("none"), List.of(), s, s, s))
                .hasMessageContaining("node counts");
        assertThatThrownBy(() -> new StudyPlan("custom", List.of(2), medium, List.of("none"), List.of(), s, s, s, 0))
                .hasMessageContaining("rounds must be 1 to 50");
        assertThatThrownBy(() -> new StudyPlan("custom", List.of(1), medium, List.of("none"), List.of(), s, s, s, 2))
                .hasMessageContaining("rounds repeat the experiments at 2 or more nodes");
        assertThatThrownBy(() -> LoadLevel.parse("heavy")).hasMessageContaining("medium, high or a number");
        assertThat(LoadLevel.parse("25")).isEqualTo(new LoadLevel("25", 25));
        assertThat(LoadLevel.parse("HIGH").usersPerNode()).isEqualTo(LoadLevel.HIGH_USERS);
    }

    @Test
    void peerComparisonMeasuresEachPairBackToBackAtTwoNodesAndHighLoadWithinItsBudget() {
        List<ExperimentSpec> peers = PeerPlan.defaults().experiments();

        assertThat(peers).extracting(s -> s.target() + " " + s.pattern() + (s.failover() ? " failover" : ""))
                .containsExactly("cohort none", "cohort 2211", "cohort-haproxy 2211", "cohort 2212", "tomcat-none none",
                        "tomcat-delta delta", "tomcat-backup backup", "cohort 3211", "jetty-jdbc jdbc",
                        "cohort 2211 failover", "tomcat-delta delta failover", "cohort 2212 failover",
                        "tomcat-backup backup failover");
        assertThat(peers).extracting(ExperimentSpec::id).doesNotHaveDuplicates()
                .contains("tomcat-delta-n2-high", "cohort-haproxy-2211-n2-high", "tomcat-backup-n2-high-failover");
        assertThat(peers).allSatisfy(s -> {
            assertThat(s.nodes()).isEqualTo(2);
            assertThat(s.usersPerNode()).isEqualTo(LoadLevel.HIGH_USERS);
        });
        assertThat(peers.get(0).warmup()).isEqualTo(Duration.ofSeconds(12)); // also warms up the bench JVM
        assertThat(peers.get(1).warmup()).isEqualTo(Duration.ofSeconds(4));
        Duration planned = peers.stream().map(s -> s.warmup().plus(s.duration())).reduce(Duration.ZERO, Duration::plus);
        assertThat(planned).isLessThanOrEqualTo(Duration.ofMinutes(4)); // the rest of ~12 minutes: starting systems
        assertThatThrownBy(() -> new PeerPlan(1, LoadLevel.parse("high"), Duration.ZERO, Duration.ofSeconds(8),
                Duration.ofSeconds(16))).hasMessageContaining("needs 2 to");
    }
}
