package io.cohort.replication.group;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.View;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.TP;
import org.jgroups.stack.Protocol;
import org.jgroups.stack.ProtocolStack;

/**
 * Notices, before the view changes, that a member has most likely died: a JGroups protocol placed
 * above the socket failure detector (or the transport) that sees the suspicions raised below it. A
 * TCP transport with {@code enable_suspect_events} raises one when a member's connection closes
 * without a goodbye (a killed process's sockets close at once); FD_SOCK2 raises one, on the member
 * next in line to coordinate, when its neighbour's socket closes. JGroups then verifies the
 * suspicion ({@code VERIFY_SUSPECT2}: 1.5 s by default, up to twice that) before the view drops the
 * member; until then answers and acknowledgements owed by a suspected member are not waited for.
 *
 * <p>Only members of the current view are suspected (a suspicion of a member that already left is
 * ignored). A member stops being suspected when JGroups' verification finds it alive
 * ({@code UNSUSPECT}) or when a view without it is installed; not when a message from it arrives,
 * since one read before its connection closed can be delivered after the suspicion. Thread-safe:
 * suspicions arrive on JGroups' threads; the listener is called on them and must not block.
 */
final class SuspicionWatch extends Protocol {

    private final Set<Address> suspected = ConcurrentHashMap.newKeySet();
    private final Consumer<Address> onSuspected;
    private volatile List<Address> viewMembers = List.of();

    private SuspicionWatch(Consumer<Address> onSuspected) {
        this.onSuspected = Objects.requireNonNull(onSuspected, "onSuspected");
    }

    /**
     * Puts a watch into {@code stack} (before the channel connects), above FD_SOCK2 if the stack has it,
     * else above the transport; {@code onSuspected} hears of each member newly suspected.
     */
    static SuspicionWatch insertInto(ProtocolStack stack, Consumer<Address> onSuspected) throws Exception {
        SuspicionWatch watch = new SuspicionWatch(onSuspected);
        Class<? extends Protocol> below = stack.findProtocol(FD_SOCK2.class) != null ? FD_SOCK2.class : TP.class;
        stack.insertProtocol(watch, ProtocolStack.Position.ABOVE, below);
        return watch;
    }

    /** Whether the member at {@code address} is suspected now. */
    boolean isSuspected(Address address) {
        return address != null && !suspected.isEmpty() && suspected.contains(address);
    }

    @Override
    public Object up(Event event) {
        if (event.getType() == Event.SUSPECT) {
            Collection<Address> addresses = event.arg();
            suspect(addresses == null ? List.of() : addresses);
        } else if (event.getType() == Event.UNSUSPECT) {
            clear(event.arg());
        }
        return up_prot.up(event);
    }

    @Override
    public Object down(Event event) {
        switch (event.getType()) {
            case Event.UNSUSPECT -> clear(event.arg());
            case Event.VIEW_CHANGE -> {
                View view = event.arg();
                viewMembers = view.getMembers();
                suspected.retainAll(viewMembers);
            }
            default -> {
            }
        }
        return down_prot.down(event);
    }

    private void suspect(Collection<Address> addresses) {
        List<Address> members = viewMembers;
        for (Address address : addresses) {
            if (address != null && !address.equals(local_addr) && members.contains(address) && suspected.add(address)) {
                log.debug("%s: %s is suspected", local_addr, address);
                onSuspected.accept(address);
            }
        }
    }

    private void clear(Address address) {
        if (address != null && suspected.remove(address)) {
            log.debug("%s: %s is no longer suspected", local_addr, address);
        }
    }
}
