package io.cohort.admin;

import io.cohort.cluster.Member;
import io.cohort.node.deploy.ApplicationInfo;
import io.cohort.node.deploy.ApplicationName;
import io.cohort.node.deploy.DeploymentException;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * What the admin endpoints may do to the node. Implemented by the node; every method is safe to
 * call from any thread.
 */
public interface AdminOperations {

    HealthReport health();

    /** Prometheus text exposition of every meter of the node. */
    String scrapeMetrics();

    List<ApplicationInfo> applications();

    /** Members in this node's cluster view. */
    List<Member> members();

    /**
     * Stores the WAR in the node's {@code webapps/} directory (so it is redeployed after a restart)
     * and deploys it; returns when it serves. The previous version keeps serving on failure.
     *
     * @throws NodeNotServingException while the node starts or stops (nothing is stored or deployed)
     */
    ApplicationInfo deploy(ApplicationName name, InputStream war) throws DeploymentException, IOException;

    /**
     * Removes the application and its WAR from {@code webapps/}; false if it was not deployed.
     *
     * @throws NodeNotServingException while the node starts or stops (nothing is removed)
     */
    boolean undeploy(ApplicationName name) throws IOException;

    /** Starts a graceful stop in the background and returns at once. */
    void stopGracefully();
}
