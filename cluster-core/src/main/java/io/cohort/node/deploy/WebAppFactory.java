package io.cohort.node.deploy;

import io.cohort.session.jetty.BackupRouteFilter;
import io.cohort.session.jetty.CohortSessionCache;
import io.cohort.session.jetty.SessionStoreAdapter;
import io.cohort.session.jetty.StoreBinding;
import jakarta.servlet.DispatcherType;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Function;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.SessionHandler;
import org.eclipse.jetty.ee10.webapp.ClassMatcher;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.handler.ErrorHandler;

/**
 * Builds the Jetty context for one WAR: a standard EE10 web application with JSP and JSTL, served
 * only on the node's HTTP connector, with its sessions bound to Cohort's session store.
 */
final class WebAppFactory {

    /**
     * Jars on the node's class path that web applications scan for tag library descriptors: only
     * the JSTL implementation. The JSP engine's initializer is found through its service file
     * without scanning its (large) jars for annotations, which keeps deployments fast.
     */
    static final String CONTAINER_JARS = ".*/jakarta\\.servlet\\.jsp\\.jstl-[^/]*\\.jar$";

    /** Node classes that applications must never see, even when the node's class path has them. */
    private static final List<String> HIDDEN_NODE_PACKAGES = List.of(
            "io.cohort.admin.", "io.cohort.cluster.", "io.cohort.config.", "io.cohort.metrics.",
            "io.cohort.node.", "io.cohort.session.", "io.cohort.replication.", "io.cohort.balancer.",
            "com.zaxxer.hikari.", "io.micrometer.", "com.fasterxml.", "org.jgroups.", "ch.qos.logback.");

    private final String connectorName;

    WebAppFactory(String connectorName) {
        this.connectorName = connectorName;
    }

    /**
     * @param name the application
     * @param war the staged (private, immutable) copy of the WAR
     * @param tempDirectory where Jetty unpacks the WAR and compiles JSPs
     * @param binder decides the session store once the application's class loader exists
     */
    WebAppContext create(ApplicationName name, Path war, Path tempDirectory,
            Function<WebAppContext, StoreBinding.Binder> binder) {
        WebAppContext context = new CachingWebAppContext();
        context.setDisplayName(name.value());
        context.setContextPath(name.contextPath());
        context.setWar(war.toString());
        context.setTempDirectory(tempDirectory.toFile());
        context.setTempDirectoryPersistent(false);
        context.setExtractWAR(true);
        context.setVirtualHosts(List.of("@" + connectorName));
        context.setAttribute("org.eclipse.jetty.server.webapp.ContainerIncludeJarPattern", CONTAINER_JARS);
        context.setThrowUnavailableOnStartupException(true);
        context.addHiddenClassMatcher(new ClassMatcher(HIDDEN_NODE_PACKAGES.toArray(String[]::new)));
        if (context.getErrorHandler() instanceof ErrorHandler errors) {
            // error pages of the web.xml still apply; Jetty's own pages never show a stack trace
            errors.setShowStacks(false);
            errors.setShowMessageInTitle(false);
        }

        SessionHandler sessions = context.getSessionHandler();
        SessionStoreAdapter adapter = new SessionStoreAdapter(binder.apply(context));
        // every request reaches the store at its response commit (Jetty flushes a session setAttribute made dirty,
        // CohortSessionCache.commit reports the others), and the store decides how often an unchanged one is worth
        // a touch; the save period only keeps Jetty's own release from handing the session over a second time
        adapter.setSavePeriodSec(60);
        sessions.setSessionCache(new CohortSessionCache(sessions, adapter));
        context.addFilter(new FilterHolder(new BackupRouteFilter(adapter)), "/*", EnumSet.of(DispatcherType.REQUEST));
        return context;
    }
}
