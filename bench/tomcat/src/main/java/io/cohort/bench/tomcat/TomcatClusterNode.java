package io.cohort.bench.tomcat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.startup.Tomcat;

/**
 * One node of the Tomcat 11 peer baseline, run as its own JVM ({@code java -cp <bench/tomcat class path>
 * io.cohort.bench.tomcat.TomcatClusterNode <options>}, see {@link TomcatNodeOptions}): an embedded Tomcat
 * on 127.0.0.1 with the given jvmRoute, the shop's WAR at {@code /jpetstore} with its
 * {@code jdbc/jpetstore} DataSource, {@code /health} for balancers, {@code /metrics} with the cluster
 * channel's bytes (see {@link MetricsServlet}), and a cluster of statically known members replicating
 * sessions with DeltaManager or BackupManager (or no cluster, for {@code --manager none}).
 *
 * <p>Exit codes: 0 after a stop by SIGTERM, 2 for bad options, 1 when Tomcat or the shop fail to start.
 */
public final class TomcatClusterNode {

    private final TomcatNodeOptions options;
    private final Tomcat tomcat = new Tomcat();

    TomcatClusterNode(TomcatNodeOptions options) {
        this.options = options;
    }

    public static void main(String[] args) {
        TomcatNodeOptions options;
        try {
            options = TomcatNodeOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("tomcat node: " + e.getMessage());
            System.exit(2);
            return;
        }
        TomcatClusterNode node = new TomcatClusterNode(options);
        try {
            node.start();
        } catch (Exception e) {
            System.err.println("tomcat node " + options.route() + " failed to start: " + e);
            e.printStackTrace();
            node.stopQuietly();
            System.exit(1);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(node::stopQuietly, "tomcat-node-stop"));
        if (options.exitWithParent()) {
            ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> System.exit(0)));
        }
        node.tomcat.getServer().await();
    }

    void start() throws LifecycleException, IOException {
        Files.createDirectories(options.workDir().resolve("webapps"));
        tomcat.setBaseDir(options.workDir().toString());
        tomcat.getHost().setAppBase(options.workDir().resolve("webapps").toString());
        tomcat.getServer().setPort(-1); // no shutdown port: the node stops on SIGTERM

        Connector connector = new Connector();
        connector.setPort(options.httpPort());
        connector.setProperty("address", "127.0.0.1");
        tomcat.setConnector(connector);

        tomcat.getEngine().setJvmRoute(options.route());
        ChannelBytes bytes = new ChannelBytes();
        if (options.manager() != SessionReplication.NONE) {
            tomcat.getEngine().setCluster(ClusterSetup.create(options, bytes));
        }
        tomcat.enableNaming();

        Context shop = tomcat.addWebapp(options.contextPath(), options.war().toString());
        shop.getNamingResources().addResource(ShopDataSourceFactory.resource(options));

        Context health = tomcat.addContext("/health", new File(options.workDir().toFile(), "health").getAbsolutePath());
        Files.createDirectories(options.workDir().resolve("health"));
        if (health instanceof StandardContext standard) {
            standard.setMapperContextRootRedirectEnabled(false);
        }
        Tomcat.addServlet(health, "health", new HealthServlet());
        health.addServletMappingDecoded("/*", "health");

        Context metrics = tomcat.addContext("/metrics", new File(options.workDir().toFile(), "metrics").getAbsolutePath());
        Files.createDirectories(options.workDir().resolve("metrics"));
        if (metrics instanceof StandardContext standard) {
            standard.setMapperContextRootRedirectEnabled(false);
        }
        Tomcat.addServlet(metrics, "metrics", new MetricsServlet(bytes));
        metrics.addServletMappingDecoded("/*", "metrics");

        tomcat.start();
        if (shop.getState() != LifecycleState.STARTED) {
            throw new LifecycleException("the web application " + options.war().getFileName() + " did not start ("
                    + shop.getState() + "); see the log above");
        }
        System.out.println("tomcat node " + options.route() + " serves http://127.0.0.1:" + options.httpPort()
                + options.contextPath() + "/ with " + options.manager().argument() + " replication");
    }

    private void stopQuietly() {
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException | RuntimeException e) {
            System.err.println("tomcat node " + options.route() + " did not stop cleanly: " + e);
        }
    }
}
