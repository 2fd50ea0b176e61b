package io.cohort.session;

import io.cohort.cluster.ClusterView;
import io.cohort.config.ReplicationSettings;
import io.cohort.session.serial.SessionValueCodec;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link SessionStore} learns about the application it serves.
 *
 * @param application the application name (its WAR name; unique on a node and across the cluster)
 * @param contextPath the servlet context path, e.g. {@code /jpetstore}
 * @param nodeName this node's name, which is also its route
 * @param distributable whether the application declares {@code <distributable/>}
 * @param classLoader the application's class loader, for deserializing values
 * @param codec serializes values and deserializes them through the allow-list filter
 * @param replication the effective replication policy (node configuration with the application's
 *     {@code WEB-INF/cohort-web.xml} override applied); empty when replication is off
 * @param clusterView the current members of the cluster
 * @param meters where the store registers its metrics (tag them with {@code app})
 * @param cache the node's in-memory sessions of this application
 * @param stopTimeout how long {@link SessionStore#stop()} may wait, e.g. for the hand-over of a
 *     graceful stop to be acknowledged (the node's {@code graceful-stop})
 */
public record SessionStoreContext(
        String application,
        String contextPath,
        String nodeName,
        boolean distributable,
        ClassLoader classLoader,
        SessionValueCodec codec,
        Optional<ReplicationSettings> replication,
        ClusterView clusterView,
        MeterRegistry meters,
        SessionCacheControl cache,
        Duration stopTimeout) {

    public SessionStoreContext {
        Objects.requireNonNull(application, "application");
        Objects.requireNonNull(contextPath, "contextPath");
        Objects.requireNonNull(nodeName, "nodeName");
        Objects.requireNonNull(classLoader, "classLoader");
        Objects.requireNonNull(codec, "codec");
        Objects.requireNonNull(replication, "replication");
        Objects.requireNonNull(clusterView, "clusterView");
        Objects.requireNonNull(meters, "meters");
        Objects.requireNonNull(cache, "cache");
        Objects.requireNonNull(stopTimeout, "stopTimeout");
    }
}
