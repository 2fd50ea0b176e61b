package io.cohort.bench.study.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.bench.study.model.ExperimentResult;
import io.cohort.bench.study.model.ExperimentSpec;
import io.cohort.bench.study.model.NodeSample;
import io.cohort.cli.cluster.EmbeddedH2Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver's session check, end to end on real local clusters (node JVMs of the built distribution, balancers
 * in this JVM, a small benchmark data set on an embedded H2): a replicating cluster keeps every session, and a
 * cluster without replication that loses a node is caught losing sessions. Asserts on counts, never on timing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class SessionCheckOnLocalClusterTest {

    private static final Path COHORT_HOME = Path.of("../distribution/target/cohort").toAbsolutePath().normalize();
    private static final DataSetSize DATA_SET = new DataSetSize(200, 1000);

    @TempDir
    static Path dir;
    private EmbeddedH2Server database;
    private Cleanup cleanup;
    private ExperimentRunner runner;

    @BeforeAll
    void shareOneDatabaseWithTheBenchmarkDataSet() throws Exception {
        assertThat(COHORT_HOME.resolve("lib")).as("the built distribution (./mvnw -pl distribution -am package)")
                .isDirectory();
        database = EmbeddedH2Server.start(dir.resolve("h2"));
        StudyEnvironment environment = new StudyEnvironment(dir.resolve("work"),
                COHORT_HOME.resolve("webapps").resolve("jpetstore.war"), database.database(),
                StudyEnvironment.nodeJava(COHORT_HOME, DATA_SET), Duration.ofSeconds(180), DATA_SET.accounts());
        cleanup = new Cleanup();
        runner = new ExperimentRunner((spec, c) -> LocalStudyCluster.start(spec, environment, c::add),
                DATA_SET.accounts(), 7, cleanup);
    }

    @AfterAll
    void stopEverything() {
        if (cleanup != null) {
            cleanup.close();
        }
        if (database != null) {
            database.close();
        }
    }

    @Test
    void replicatingClusterCompletesScenariosWithoutLosingASession() throws Exception {
        ExperimentSpec spec = new ExperimentSpec("check-2211", "cohort", "2211", 2, 4, "4", Duration.ofSeconds(2),
                Duration.ofSeconds(6), false);

        ExperimentResult result = runner.run(spec, new SilentProgress());

        assertThat(result.summary().scenarios()).as(result.notes().toString()).isPositive();
        assertThat(result.summary().sessionsLost()).as(result.notes().toString()).isZero();
        assertThat(result.summary().errors()).as(result.notes().toString()).isZero();
        assertThat(result.nodes()).extracting(NodeSample::node).contains("n1", "n2");
        assertThat(result.summary().cpuPercentPerNode()).isPositive();
        assertThat(result.summary().interconnectKBpsPerNode()).as("replication bytes from /metrics").isPositive();
        assertThat(Files.exists(dir.resolve("work/check-2211/n1/node.log"))).isTrue();
    }

    @Test
    void clusterWithoutReplicationLosesSessionsWhenANodeIsKilled() throws Exception {
        ExperimentSpec spec = new ExperimentSpec("check-none-kill", "cohort", "none", 2, 6, "6", Duration.ofSeconds(2),
                Duration.ofSeconds(8), true);

        ExperimentResult result = runner.run(spec, new SilentProgress());

        assertThat(result.failover()).isNotNull();
        assertThat(result.failover().killedNode()).isEqualTo("n1");
        assertThat(result.failover().sessionsLost()).as(result.notes().toString()).isPositive();
        assertThat(result.summary().sessionsLost()).isGreaterThanOrEqualTo(result.failover().sessionsLost());
        assertThat(result.notes()).anyMatch(note -> note.startsWith("failed scenarios: SESSION_LOST"));
    }

    /** Progress nobody watches. */
    private static final class SilentProgress implements Progress {
        @Override
        public void experimentStarted(int index, int count, ExperimentSpec spec) {
        }

        @Override
        public void phase(String text) {
        }

        @Override
        public void tick(long pagesLastSecond, long errorsSoFar, long sessionsLostSoFar) {
        }

        @Override
        public void experimentFinished(ExperimentResult result) {
        }

        @Override
        public void experimentFailed(ExperimentSpec spec, String reason) {
        }

        @Override
        public void close() {
        }
    }
}
