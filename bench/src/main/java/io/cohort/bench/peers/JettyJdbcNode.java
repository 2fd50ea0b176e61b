package io.cohort.bench.peers;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.cohort.net.AcceptQueue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.plus.jndi.Resource;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.session.DatabaseAdaptor;
import org.eclipse.jetty.session.DefaultSessionCache;
import org.eclipse.jetty.session.DefaultSessionIdManager;
import org.eclipse.jetty.session.JDBCSessionDataStore;
import org.eclipse.jetty.util.Callback;

/**
 * The baseline of Cohort's {@code database} protocol: plain Jetty 12 EE10 (no Cohort code) serving the shop's
 * WAR at {@code /jpetstore} with Jetty's own {@link JDBCSessionDataStore} behind a {@link DefaultSessionCache},
 * on the shop's database, in its own JVM ({@link JettyJdbcNodeOptions} for the command line). Sessions are
 * written when the response is committed, as on a Cohort node; a node that is asked for a session it does
 * not cache loads it from the database. Session ids end with {@code .<route>} (the id manager's worker
 * name), so the same sticky fronts work. JSP and JSTL are set up as on a Cohort node; {@code /health}
 * answers {@code {"status":"UP"}} once the shop has started.
 *
 * <p>Exit codes: 2 for bad options, 1 when the node fails to start; it stops gracefully on SIGTERM.
 */
public final class JettyJdbcNode {

    /** The JNDI name under {@code java:comp/env} that the shop looks up. */
    static final String DATASOURCE = "jdbc/jpetstore";
    /** A Cohort node's default pool size. */
    private static final int POOL_SIZE = 10;
    /** Like a Cohort node: the jar of the JSTL implementation is scanned for tag libraries. */
    private static final String CONTAINER_JARS = ".*/jakarta\\.servlet\\.jsp\\.jstl-[^/]*\\.jar$";
    /** Like a Cohort node: access-time-only changes are written at most once a minute. */
    private static final int SAVE_PERIOD_SECONDS = 60;

    private JettyJdbcNode() {
    }

    public static void main(String[] args) {
        JettyJdbcNodeOptions options;
        try {
            options = JettyJdbcNodeOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("jetty-jdbc node: " + e.getMessage());
            System.exit(2);
            return;
        }
        try {
            Server server = start(options);
            if (options.exitWithParent()) {
                ProcessHandle.current().parent().ifPresent(p -> p.onExit().thenRun(() -> System.exit(0)));
            }
            System.out.println("jetty-jdbc node " + options.route() + " serves http://127.0.0.1:" + options.httpPort()
                    + "/jpetstore/");
            server.join();
        } catch (Exception e) {
            System.err.println("jetty-jdbc node " + options.route() + " failed to start: " + e);
            e.printStackTrace();
            System.exit(1);
        }
    }

    static Server start(JettyJdbcNodeOptions options) throws Exception {
        Files.createDirectories(options.workDir());
        Server server = new Server();
        server.setStopAtShutdown(true);
        server.setStopTimeout(10_000);
        ServerConnector connector = new ServerConnector(server);
        connector.setAcceptQueueSize(AcceptQueue.SIZE); // as a Cohort node's: the comparison differs in replication only
        connector.setHost("127.0.0.1");
        connector.setPort(options.httpPort());
        server.addConnector(connector);

        DefaultSessionIdManager ids = new DefaultSessionIdManager(server);
        ids.setWorkerName(options.route());
        server.addBean(ids, true);

        HikariDataSource pool = pool(options);
        server.addBean(pool, true); // closed when the server stops
        new Resource(server, DATASOURCE, pool);

        WebAppContext shop = new WebAppContext();
        shop.setContextPath("/jpetstore");
        shop.setWar(options.war().toString());
        shop.setTempDirectory(options.workDir().resolve("jpetstore").toFile());
        shop.setTempDirectoryPersistent(false);
        shop.setExtractWAR(true);
        shop.setAttribute("org.eclipse.jetty.server.webapp.ContainerIncludeJarPattern", CONTAINER_JARS);
        shop.setThrowUnavailableOnStartupException(true);
        Files.createDirectories(options.workDir().resolve("jpetstore"));

        DatabaseAdaptor database = new DatabaseAdaptor();
        database.setDatasource(pool);
        JDBCSessionDataStore store = new JDBCSessionDataStore();
        store.setDatabaseAdaptor(database);
        store.setSavePeriodSec(SAVE_PERIOD_SECONDS);
        DefaultSessionCache cache = new DefaultSessionCache(shop.getSessionHandler());
        cache.setSessionDataStore(store);
        cache.setFlushOnResponseCommit(true);
        shop.getSessionHandler().setSessionCache(cache);

        ContextHandler health = new ContextHandler(new HealthHandler(), "/health");
        health.setAllowNullPathInContext(true); // /health itself, not a redirect to /health/
        server.setHandler(new Handler.Sequence(health, shop));
        server.start();
        if (!shop.isAvailable()) {
            server.stop();
            throw new IllegalStateException("the shop did not start; see the log above");
        }
        return server;
    }

    private static HikariDataSource pool(JettyJdbcNodeOptions options) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(options.route() + ":" + DATASOURCE);
        config.setJdbcUrl(options.dbUrl());
        config.setUsername(options.dbUser());
        options.dbPassword().ifPresent(config::setPassword);
        config.setMaximumPoolSize(POOL_SIZE);
        config.setInitializationFailTimeout(-1);
        return new HikariDataSource(config);
    }

    /** {@code GET /health}: 200 {@code {"status":"UP"}}; it is reached only once the server has started. */
    private static final class HealthHandler extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            response.write(true, java.nio.ByteBuffer.wrap("{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8)),
                    callback);
            return true;
        }
    }
}
