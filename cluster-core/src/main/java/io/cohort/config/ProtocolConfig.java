package io.cohort.config;

/**
 * The transport of a cluster, the one child of {@code <protocol>}. The replication module maps
 * each kind to its transport; switch over the permitted records.
 */
public sealed interface ProtocolConfig permits GroupProtocol, DatabaseProtocol {
}
