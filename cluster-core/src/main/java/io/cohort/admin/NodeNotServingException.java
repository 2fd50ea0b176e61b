package io.cohort.admin;

/**
 * The node cannot deploy or undeploy now: it is still starting, or already stopping. The admin endpoints answer
 * 503 with {@code Retry-After}; nothing was changed.
 */
public final class NodeNotServingException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public NodeNotServingException(NodeState state) {
        super("the node is " + state.name().toLowerCase(java.util.Locale.ROOT) + ", not serving: nothing was changed"
                + (state == NodeState.STARTING ? "; try again once it is UP" : ""));
    }
}
