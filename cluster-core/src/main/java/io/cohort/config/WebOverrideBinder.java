package io.cohort.config;

import java.util.Optional;

/**
 * Turns a bound {@link RawWeb} ({@code WEB-INF/cohort-web.xml}) into a {@link WebAppOverride}: every
 * absent attribute stays empty, meaning "inherit from the node".
 */
final class WebOverrideBinder {

    private final SourceElement root;

    WebOverrideBinder(SourceMap source) {
        this.root = source.root("cohort-web");
    }

    WebAppOverride bind(RawWeb raw) throws ConfigException {
        Optional<WebAppOverride.Replication> replication = Optional.empty();
        if (raw.replication != null) {
            replication = Optional.of(replication(root.child("replication"), raw.replication));
        }
        Optional<SerializationOverride> serialization = Optional.empty();
        if (raw.serialization != null) {
            SourceElement at = root.child("serialization");
            serialization = Optional.of(new SerializationOverride(
                    raw.serialization.maxBytes == null ? Optional.empty() : Optional.of(MaxBytesAttribute.read(at, raw.serialization.maxBytes)),
                    at.optional("max-depth", raw.serialization.maxDepth, v -> Integer.parseInt(v.trim())),
                    raw.serialization.allow.stream().map(a -> a.pattern).toList()));
        }
        return new WebAppOverride(replication, serialization);
    }

    private static WebAppOverride.Replication replication(SourceElement at, RawWeb.RawReplication raw) throws ConfigException {
        RawWeb.RawPolicy policy = raw.replicationPolicy == null ? new RawWeb.RawPolicy() : raw.replicationPolicy;
        SourceElement policyAt = at.child("replication-policy");
        Optional<WebAppOverride.DeliveryOverride> delivery = Optional.empty();
        if (raw.synchronous != null) {
            delivery = Optional.of(new WebAppOverride.SyncOverride(
                    at.child("synchronous-replication").optional("timeout", raw.synchronous.timeout, ConfigDuration::parse)));
        } else if (raw.asynchronous != null) {
            delivery = Optional.of(new WebAppOverride.AsyncOverride(at.child("asynchronous-replication")
                    .optional("queue-capacity", raw.asynchronous.queueCapacity, v -> Integer.parseInt(v.trim()))));
        }
        return new WebAppOverride.Replication(
                at.optional("enabled", raw.enabled, v -> Boolean.parseBoolean(v.trim())),
                at.optional("write-quota", raw.writeQuota, v -> Integer.parseInt(v.trim())),
                at.optional("allow-colocation", raw.allowColocation, v -> Boolean.parseBoolean(v.trim())),
                at.optional("cache-miss-delay", raw.cacheMissDelay, ConfigDuration::parse),
                policyAt.optional("trigger", policy.trigger, Trigger::fromXml),
                policyAt.optional("scope", policy.scope, Scope::fromXml),
                delivery);
    }
}
