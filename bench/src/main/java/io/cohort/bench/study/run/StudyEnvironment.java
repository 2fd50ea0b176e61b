package io.cohort.bench.study.run;

import io.cohort.cli.cluster.JavaCommand;
import io.cohort.cli.cluster.ShopDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What every local cluster of a run shares: where the clusters live, the shop WAR, the shop's database (one for
 * the whole run, so the data set is loaded once), how the node JVMs are started, and how long a cluster may take
 * to come up.
 *
 * @param workDir       a directory per experiment is made in it
 * @param shopWar       the JPetStore WAR every node deploys
 * @param database      the shop's database
 * @param nodeJava      how node JVMs are started (class path, heap, the data set's settings)
 * @param startTimeout  how long all nodes of a cluster may take to report UP, and then the shop to answer
 * @param accounts      benchmark accounts the warm-up visitors sign on with
 */
public record StudyEnvironment(Path workDir, Path shopWar, ShopDatabase database, JavaCommand nodeJava,
        Duration startTimeout, int accounts) {

    /** Heap of each node JVM. */
    static final String NODE_HEAP = "-Xmx512m";

    public StudyEnvironment {
        Objects.requireNonNull(workDir, "workDir");
        Objects.requireNonNull(shopWar, "shopWar");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(nodeJava, "nodeJava");
        Objects.requireNonNull(startTimeout, "startTimeout");
    }

    /** The same environment with {@code options} added to the node JVMs' options (later ones win). */
    public StudyEnvironment withNodeOptions(List<String> options) {
        if (options.isEmpty()) {
            return this;
        }
        List<String> all = new ArrayList<>(nodeJava.jvmOptions());
        all.addAll(options);
        return new StudyEnvironment(workDir, shopWar, database,
                new JavaCommand(nodeJava.java(), nodeJava.classPath(), all), startTimeout, accounts);
    }

    /**
     * The node JVM command, as the distribution's {@code bin/cohort} runs a node: this JVM's java, the
     * distribution's {@code lib/*} as class path (never the bench's own class path: the nodes must see only what a
     * real installation has), its logging configuration, a heap of {@value #NODE_HEAP}, and the data set.
     *
     * @param cohortHome the built distribution ({@code distribution/target/cohort})
     */
    static JavaCommand nodeJava(Path cohortHome, DataSetSize dataSet) {
        List<String> options = new ArrayList<>(List.of("-Dcohort.home=" + cohortHome,
                "-Dlogback.configurationFile=" + cohortHome.resolve("conf").resolve("logback.xml"), NODE_HEAP));
        options.addAll(dataSet.systemProperties());
        return new JavaCommand(JavaCommand.current().java(), cohortHome.resolve("lib") + "/*", options);
    }
}
