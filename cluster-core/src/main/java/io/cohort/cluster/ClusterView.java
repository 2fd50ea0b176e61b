package io.cohort.cluster;

import java.util.List;
import java.util.function.Consumer;

/**
 * The current members of the cluster as seen from this node. The replication module feeds it from
 * its group membership; a local-only node holds just itself.
 *
 * <p>Implementations are thread-safe. {@link #members()} returns an immutable snapshot ordered the
 * same way on every member for the same view (so placement computed from it is deterministic).
 * Listeners are called on a membership thread after each change, with the new snapshot; they must
 * not block.
 */
public interface ClusterView {

    /** This node. */
    Member self();

    /** Immutable snapshot of the current members, this node included. */
    List<Member> members();

    /** Registers a listener for later changes; returns a handle that unregisters it. */
    AutoCloseable onChange(Consumer<List<Member>> listener);
}
