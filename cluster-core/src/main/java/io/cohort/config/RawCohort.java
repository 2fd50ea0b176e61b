package io.cohort.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.dataformat.xml.annotation.JacksonXmlElementWrapper;
import java.util.ArrayList;
import java.util.List;

/**
 * Jackson's binding target for {@code cohort-config-1.xsd}: attribute values as written, and the
 * schema's defaults as field initializers (ConfigDefaultsTest keeps the two equal). A null element
 * field means the element is absent. Only ever filled from a document that passed the schema, so
 * {@link ConfigBinder} can rely on required values being present and well-formed.
 */
@SuppressWarnings("unused") // fields are written by Jackson
final class RawCohort {

    RawNode node;
    RawAdmin admin;
    @JacksonXmlElementWrapper(useWrapping = false)
    @JsonProperty("datasource")
    List<RawDataSource> dataSources = new ArrayList<>();
    RawSerialization serialization;
    RawCluster cluster;
    RawBalancer balancer;

    static final class RawNode {
        String name;
        String host = "localhost";
        @JsonProperty("bind-addr") String bindAddr = "127.0.0.1";
        @JsonProperty("http-port") String httpPort = "8080";
        String webapps = "webapps";
        @JsonProperty("work-dir") String workDir = "work";
        @JsonProperty("max-threads") String maxThreads = "200";
        @JsonProperty("graceful-stop") String gracefulStop = "30s";
        @JsonProperty("scan-interval") String scanInterval = "1s";
        @JsonProperty("idle-timeout") String idleTimeout = "65s";
        @JsonProperty("trusted-proxies") String trustedProxies = "127.0.0.0/8 ::1";
    }

    static final class RawAdmin {
        String enabled = "true";
        @JsonProperty("bind-addr") String bindAddr = "127.0.0.1";
        String port = "9090";
        @JsonProperty("token-env") String tokenEnv;
        @JsonProperty("token-file") String tokenFile;
        @JsonProperty("max-upload") String maxUpload = "256MiB";
    }

    static final class RawDataSource {
        String name;
        String url;
        String user;
        @JsonProperty("password-env") String passwordEnv;
        @JsonProperty("password-file") String passwordFile;
        @JsonProperty("max-pool-size") String maxPoolSize = "10";
        @JsonProperty("connection-timeout") String connectionTimeout = "30s";
    }

    static final class RawSerialization {
        @JsonProperty("max-bytes") String maxBytes = "1MB";
        @JsonProperty("max-depth") String maxDepth = "100";
        @JsonProperty("max-references") String maxReferences = "100000";
        @JacksonXmlElementWrapper(useWrapping = false)
        @JsonProperty("allow")
        List<RawAllow> allow = new ArrayList<>();
    }

    static final class RawAllow {
        String pattern;
    }

    static final class RawCluster {
        String name;
        String enabled = "true";
        @JsonProperty("write-quota") String writeQuota = "1";
        @JsonProperty("allow-colocation") String allowColocation = "true";
        @JsonProperty("cache-miss-delay") String cacheMissDelay = "1000ms";
        @JsonProperty("replication-policy") RawReplicationPolicy replicationPolicy;
        @JsonProperty("synchronous-replication") RawSynchronous synchronous;
        @JsonProperty("asynchronous-replication") RawAsynchronous asynchronous;
        RawProtocol protocol;
        RawSecurity security;
    }

    static final class RawReplicationPolicy {
        String trigger = "onRequestEnd";
        String scope = "modifiedAttributes";
    }

    static final class RawSynchronous {
        String timeout = "2s";
    }

    static final class RawAsynchronous {
        @JsonProperty("queue-capacity") String queueCapacity = "10000";
    }

    static final class RawProtocol {
        RawPeer peer;
        RawMulticast multicast;
        RawDatabase database;
    }

    static final class RawPeer {
        @JsonProperty("bind-addr") String bindAddr = "127.0.0.1";
        @JsonProperty("start-port") String startPort = "7800";
        String range = "10";
        String timeout = "3s";
        String discovery = "static";
        @JsonProperty("dns-query") String dnsQuery;
        @JsonProperty("data-source") String dataSource;
        String stack;
        @JsonProperty("batch-size") String batchSize = "64";
        @JsonProperty("flush-interval") String flushInterval = "2ms";
        @JacksonXmlElementWrapper(useWrapping = false)
        @JsonProperty("member")
        List<RawMember> members = new ArrayList<>();
    }

    static final class RawMember {
        String host;
        String port;
    }

    static final class RawMulticast {
        String ip = "230.230.0.1";
        String port = "45566";
        @JsonProperty("bind-addr") String bindAddr = "127.0.0.1";
        String ttl = "2";
        String stack;
        @JsonProperty("batch-size") String batchSize = "64";
        @JsonProperty("flush-interval") String flushInterval = "2ms";
    }

    static final class RawDatabase {
        @JsonProperty("data-source") String dataSource;
        String url;
        String user;
        @JsonProperty("password-env") String passwordEnv;
        @JsonProperty("password-file") String passwordFile;
        @JsonProperty("table-prefix") String tablePrefix = "cohort_";
        @JsonProperty("batch-size") String batchSize = "100";
        @JsonProperty("flush-interval") String flushInterval = "50ms";
    }

    static final class RawSecurity {
        @JsonProperty("secret-env") String secretEnv;
        @JsonProperty("secret-file") String secretFile;
        String encrypt = "true";
        /** Absent: TLS with {@code <peer>} when traffic is encrypted, otherwise none ({@link ClusterBinder}). */
        String tls;
    }

    static final class RawBalancer {
        String name = "balancer";
        String host = "localhost";
        @JsonProperty("bind-addr") String bindAddr = "127.0.0.1";
        String port = "8000";
        @JsonProperty("admin-bind-addr") String adminBindAddr = "127.0.0.1";
        @JsonProperty("admin-port") String adminPort = "9000";
        String policy = "roundrobin:local";
        @JsonProperty("session-cookie") String sessionCookie = "JSESSIONID";
        @JsonProperty("connect-timeout") String connectTimeout = "2s";
        @JsonProperty("request-timeout") String requestTimeout = "60s";
        @JsonProperty("idle-timeout") String idleTimeout = "30s";
        @JsonProperty("max-request-body") String maxRequestBody = "10MB";
        @JsonProperty("max-header-size") String maxHeaderSize = "8KiB";
        @JsonProperty("max-connections") String maxConnections = "64";
        @JsonProperty("max-queued-per-member") String maxQueuedPerMember = "1024";
        @JsonProperty("max-member-header-size") String maxMemberHeaderSize = "64KiB";
        @JsonProperty("graceful-stop") String gracefulStop = "5s";
        @JsonProperty("trusted-proxies") String trustedProxies = "none";
        RawHealth health;
        @JsonProperty("client-limits") RawClientLimits clientLimits;
        @JacksonXmlElementWrapper(useWrapping = false)
        @JsonProperty("balancer-member")
        List<RawBalancerMember> members = new ArrayList<>();
        @JacksonXmlElementWrapper(useWrapping = false)
        @JsonProperty("weight")
        List<RawWeight> weights = new ArrayList<>();
    }

    static final class RawHealth {
        String path = "/health";
        String interval = "2s";
        String timeout = "1s";
        String fall = "3";
        String rise = "2";
    }

    static final class RawClientLimits {
        @JsonProperty("header-timeout") String headerTimeout = "10s";
        @JsonProperty("max-connections") String maxConnections = "10000";
        @JsonProperty("max-connections-per-address") String maxConnectionsPerAddress = "unlimited";
        @JsonProperty("max-request-rate") String maxRequestRate = "unlimited";
        @JsonProperty("request-burst") String requestBurst;
    }

    static final class RawBalancerMember {
        String name;
        String host = "localhost";
        String url;
        @JsonProperty("health-url") String healthUrl;
        String weight;
    }

    static final class RawWeight {
        String host;
        String value;
    }
}
