package io.cohort.replication.group;

import java.util.Objects;
import java.util.function.Supplier;
import org.jgroups.JChannel;
import org.jgroups.protocols.FD_SOCK2;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs once when the socket failure detector (FD_SOCK2) stays unconnected to the member it watches for
 * two checks in a row, and once when it connects again. Until then that member's crash is noticed
 * only by missing heartbeats, and a late heartbeat gets a live member suspected: the group flaps.
 * The usual cause is an address or port the other members cannot reach. Checked by the caller's
 * scheduler; not thread-safe (one scheduler thread calls {@link #check()}).
 */
final class FailureDetectorWatch {

    private static final Logger LOG = LoggerFactory.getLogger(FailureDetectorWatch.class);

    /** What a check saw and did. */
    enum Outcome { QUIET, WARNED, RECOVERED }

    /**
     * The detector's state at one check.
     *
     * @param watching  whether there is another member to watch
     * @param connected whether the detector holds a connection to it
     * @param target    the watched member, for the log
     */
    record Status(boolean watching, boolean connected, String target) {

        /** Whether the member that should be watched is: connected, or there is none. */
        boolean healthy() {
            return !watching || connected;
        }
    }

    private final String node;
    private final Supplier<Status> status;
    private int misses;
    private boolean warned;

    FailureDetectorWatch(String node, Supplier<Status> status) {
        this.node = Objects.requireNonNull(node, "node");
        this.status = Objects.requireNonNull(status, "status");
    }

    /** A watch of the channel's FD_SOCK2, or null when its stack has none. */
    static FailureDetectorWatch of(String node, JChannel channel, GroupMembership membership) {
        FD_SOCK2 detector = channel.getProtocolStack().findProtocol(FD_SOCK2.class);
        if (detector == null) {
            return null;
        }
        return new FailureDetectorWatch(node, () -> new Status(membership.members().size() > 1,
                "CONNECTED".equals(detector.getClientState()), watched(detector.getPingDest())));
    }

    /** The watched member's name from FD_SOCK2's "name [address state]" description. */
    static String watched(String pingDest) {
        int end = pingDest == null ? -1 : pingDest.indexOf(" [");
        String name = end < 0 ? pingDest : pingDest.substring(0, end);
        return name == null || name.isBlank() || name.equals("null") ? "its neighbour in the view" : name;
    }

    /** The detector's state now (the {@code cohort.cluster.failure.detector.connected} gauge reads it too). */
    Status status() {
        return status.get();
    }

    Outcome check() {
        Status now = status.get();
        if (now.healthy()) {
            misses = 0;
            boolean recovered = warned && now.connected();
            warned = false;
            if (recovered) {
                LOG.info("{}: the socket failure detector is connected again, to {}", node, now.target());
                return Outcome.RECOVERED;
            }
            return Outcome.QUIET;
        }
        if (++misses < 2 || warned) {
            return Outcome.QUIET;
        }
        warned = true;
        LOG.warn("{}: the socket failure detector cannot connect to the member it watches, {}; a crash is noticed only "
                + "by missing heartbeats, and a late heartbeat gets a live member suspected. Check that the members "
                + "reach each other at their bind-addr on the cluster port + 100", node, now.target());
        return Outcome.WARNED;
    }
}
