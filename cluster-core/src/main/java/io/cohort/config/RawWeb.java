package io.cohort.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.dataformat.xml.annotation.JacksonXmlElementWrapper;
import java.util.ArrayList;
import java.util.List;

/**
 * Jackson's binding target for {@code cohort-web-1.xsd}. No defaults: a null field means "inherit
 * from the node". Only filled from a document that passed the schema.
 */
@SuppressWarnings("unused") // fields are written by Jackson
final class RawWeb {

    RawReplication replication;
    RawWebSerialization serialization;

    static final class RawReplication {
        String enabled;
        @JsonProperty("write-quota") String writeQuota;
        @JsonProperty("allow-colocation") String allowColocation;
        @JsonProperty("cache-miss-delay") String cacheMissDelay;
        @JsonProperty("replication-policy") RawPolicy replicationPolicy;
        @JsonProperty("synchronous-replication") RawSync synchronous;
        @JsonProperty("asynchronous-replication") RawAsync asynchronous;
    }

    static final class RawPolicy {
        String trigger;
        String scope;
    }

    static final class RawSync {
        String timeout;
    }

    static final class RawAsync {
        @JsonProperty("queue-capacity") String queueCapacity;
    }

    static final class RawWebSerialization {
        @JsonProperty("max-bytes") String maxBytes;
        @JsonProperty("max-depth") String maxDepth;
        @JacksonXmlElementWrapper(useWrapping = false)
        @JsonProperty("allow")
        List<RawCohort.RawAllow> allow = new ArrayList<>();
    }
}
