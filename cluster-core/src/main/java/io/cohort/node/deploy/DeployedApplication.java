package io.cohort.node.deploy;

import java.nio.file.Path;
import java.time.Instant;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.session.DefaultSessionCache;

/** One running version of an application and what the deployer needs to retire it. */
record DeployedApplication(ApplicationName name, GracefulHandler handler, WebAppContext context, Path staging,
        String warSha256, Instant deployedAt) {

    ApplicationInfo info() {
        return new ApplicationInfo(name.value(), name.contextPath(), context.isDistributable() || context.getMetaData().isDistributable(), deployedAt,
                warSha256, sessionsHeld());
    }

    private long sessionsHeld() {
        return context.getSessionHandler().getSessionCache() instanceof DefaultSessionCache cache
                ? cache.getSessionsCurrent() : 0;
    }
}
