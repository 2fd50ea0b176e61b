package io.cohort.bench.study.run;

import io.cohort.bench.peers.CohortSystem;
import io.cohort.bench.peers.FrontKind;
import io.cohort.bench.peers.JettyJdbcSystem;
import io.cohort.bench.peers.PeerSystem;
import io.cohort.bench.peers.TomcatSystem;
import io.cohort.bench.study.model.ExperimentSpec;
import io.cohort.bench.study.model.SystemNames;
import io.cohort.bench.sut.SystemUnderTest;
import io.cohort.bench.tomcat.Delivery;
import io.cohort.bench.tomcat.SessionReplication;
import io.cohort.cli.cluster.ReplicationPattern;
import io.cohort.net.PresetPorts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts the system of a {@link PeerPlan} experiment by its {@link ExperimentSpec#target()}: Cohort nodes (the
 * built distribution, as {@code cohort cluster} runs them) behind Cohort's balancer ({@value SystemNames#COHORT}) or
 * HAProxy ({@value SystemNames#COHORT_HAPROXY}); Tomcat 11 with StandardManager, DeltaManager or BackupManager (async
 * channel, Tomcat's default); plain Jetty 12 with its JDBC session store. Every system uses the run's database and
 * WAR, nodes with the same heap and data-set settings, and one front door; it is ready when the shop answers through
 * it and a visitor has walked the scenario once (as for the study's clusters).
 */
final class PeerSystems implements ExperimentRunner.Systems {

    private final StudyEnvironment environment;
    private final List<String> peerJvmOptions;

    /**
     * @param environment what every system shares (Cohort nodes use its node command)
     * @param dataSet     the shop's data set, handed to the Tomcat and Jetty nodes as it is to Cohort's
     */
    PeerSystems(StudyEnvironment environment, DataSetSize dataSet) {
        this.environment = environment;
        List<String> options = new ArrayList<>(List.of(StudyEnvironment.NODE_HEAP));
        options.addAll(dataSet.systemProperties());
        this.peerJvmOptions = List.copyOf(options);
    }

    @Override
    public SystemUnderTest start(ExperimentSpec spec, Cleanup cleanup) throws Exception {
        Path dir = environment.workDir().resolve(spec.id()).toAbsolutePath().normalize();
        PeerSystem system = launch(spec, dir);
        cleanup.add(system);
        try {
            ShopReadiness.await(system.shops(), environment.accounts(), environment.startTimeout(), dir);
            return system;
        } catch (Exception e) {
            cleanup.close(system);
            throw e;
        }
    }

    private PeerSystem launch(ExperimentSpec spec, Path dir) throws Exception {
        return switch (spec.target()) {
            case SystemNames.COHORT -> cohort(spec, dir, FrontKind.COHORT_BALANCER);
            case SystemNames.COHORT_HAPROXY -> cohort(spec, dir, FrontKind.HAPROXY);
            case SystemNames.TOMCAT_NONE, SystemNames.TOMCAT_DELTA, SystemNames.TOMCAT_BACKUP -> TomcatSystem.start(dir,
                    spec.nodes(), SessionReplication.parse(spec.pattern()), Delivery.ASYNC, environment.shopWar(),
                    environment.database(), peerJvmOptions, FrontKind.COHORT_BALANCER, 0, environment.startTimeout());
            case SystemNames.JETTY_JDBC -> JettyJdbcSystem.start(dir, spec.nodes(), environment.shopWar(),
                    environment.database(), peerJvmOptions, FrontKind.COHORT_BALANCER, 0, environment.startTimeout());
            default -> throw new IllegalArgumentException("no peer system is called " + spec.target());
        };
    }

    private CohortSystem cohort(ExperimentSpec spec, Path dir, FrontKind front) throws Exception {
        ReplicationPattern pattern = ReplicationPattern.parse(spec.pattern());
        List<Integer> ports = pattern.replicates() ? PresetPorts.pick(spec.nodes()) : List.of();
        return CohortSystem.start(dir, spec.nodes(), pattern, ports, environment.nodeJava(), environment.shopWar(),
                environment.database(), front, 0, environment.startTimeout());
    }
}
