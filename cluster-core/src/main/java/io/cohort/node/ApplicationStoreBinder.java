package io.cohort.node;

import io.cohort.config.ClusterConfig;
import io.cohort.config.CohortConfig;
import io.cohort.config.ConfigException;
import io.cohort.config.ConfigLoader;
import io.cohort.config.ReplicationSettings;
import io.cohort.config.SerializationConfig;
import io.cohort.config.WebAppOverride;
import io.cohort.metrics.OncePerKind;
import io.cohort.node.deploy.ApplicationName;
import io.cohort.session.SessionCacheControl;
import io.cohort.session.SessionStore;
import io.cohort.session.SessionStoreContext;
import io.cohort.session.SessionStoreFactory;
import io.cohort.session.jetty.CohortSessionCache;
import io.cohort.session.jetty.StoreBinding;
import io.cohort.session.serial.AllowListFilter;
import io.cohort.session.serial.SessionValueCodec;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.InputStream;
import java.util.Optional;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, when an application starts, which store its sessions go to and with which policy:
 * a distributable application on a replicating node gets a replicating store with the node's
 * policy overridden by its {@code WEB-INF/cohort-web.xml}; every other application gets the local
 * store. Values are deserialized through the node's allow-list merged with the application's.
 */
final class ApplicationStoreBinder {

    private static final Logger LOG = LoggerFactory.getLogger(ApplicationStoreBinder.class);
    /** Class names come from whoever wrote the value: at most this many are logged per application, the rest counted. */
    private static final int REJECTED_CLASSES_LOGGED = 100;
    static final String OVERRIDE_RESOURCE = "/WEB-INF/cohort-web.xml";

    private final CohortConfig config;
    private final SessionStoreFactory local;
    private final Optional<SessionStoreFactory> replicating;
    private final MeterRegistry meters;

    ApplicationStoreBinder(CohortConfig config, SessionStoreFactory local, Optional<SessionStoreFactory> replicating,
            MeterRegistry meters) {
        this.config = config;
        this.local = local;
        this.replicating = replicating;
        this.meters = meters;
    }

    StoreBinding.Binder binderFor(ApplicationName name, WebAppContext context) {
        return () -> bind(name, context);
    }

    private StoreBinding bind(ApplicationName name, WebAppContext context) throws Exception {
        boolean distributable = isDistributable(context);
        ClassLoader loader = context.getClassLoader();
        WebAppOverride override = readOverride(context);
        SerializationConfig serialization = override.serialization()
                .map(config.serialization()::merge).orElse(config.serialization());
        AllowListFilter filter = new AllowListFilter(serialization.allow(), serialization.maxBytes().bytes(),
                serialization.maxDepth(), serialization.maxReferences(), loader, rejectionLogger(name));
        Optional<ReplicationSettings> replication = replicating.isPresent() && distributable
                ? config.cluster().map(cluster -> cluster.forWebApp(override))
                        .filter(ClusterConfig::enabled).map(ClusterConfig::replication)
                : Optional.empty();
        SessionStoreFactory factory = replication.isPresent() ? replicating.get() : local;
        SessionStore store = factory.newStore(name.value());
        if (replicating.isPresent() && replication.isEmpty()) {
            LOG.info("{}: sessions stay on the node that created them ({})", name,
                    distributable ? "replication disabled in WEB-INF/cohort-web.xml" : "not <distributable/>");
        }
        SessionValueCodec codec = new SessionValueCodec(loader, filter, serialization.maxBytes().bytes());
        SessionCacheControl cache = id -> {
            if (context.getSessionHandler().getSessionCache() instanceof CohortSessionCache sessions) {
                sessions.evict(id);
            }
        };
        return new StoreBinding(store, new SessionStoreContext(name.value(), name.contextPath(),
                config.node().name(), distributable, loader, codec, replication, factory.clusterView(), meters,
                cache, config.node().gracefulStop()));
    }

    /**
     * Whether the application declares {@code <distributable/>} (in web.xml and every fragment).
     * Jetty records the declaration in the context's metadata, not in its distributable property.
     */
    static boolean isDistributable(WebAppContext context) {
        return context.isDistributable() || context.getMetaData().isDistributable();
    }

    private static WebAppOverride readOverride(WebAppContext context) throws ConfigException, java.io.IOException {
        try (InputStream in = context.getServletContext().getResourceAsStream(OVERRIDE_RESOURCE)) {
            if (in == null) {
                return WebAppOverride.NONE;
            }
            return ConfigLoader.parseWebOverride(context.getDisplayName() + ".war!" + OVERRIDE_RESOURCE, in);
        }
    }

    private java.util.function.Consumer<String> rejectionLogger(ApplicationName name) {
        OncePerKind logged = new OncePerKind(REJECTED_CLASSES_LOGGED);
        return className -> {
            meters.counter("cohort.session.deserialization.rejected", "app", name.value()).increment();
            if (logged.first(className)) {
                LOG.warn("{}: deserialization of {} rejected by the allow-list filter "
                        + "(add <allow pattern=...> if it is legitimate; later rejections are only counted)",
                        name, className);
            }
        };
    }
}
