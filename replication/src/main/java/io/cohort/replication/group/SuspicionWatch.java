package io.cohort.replication.group;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.Message;
import org.jgroups.View;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.TP;
import org.jgroups.stack.Protocol;
import org.jgroups.stack.ProtocolStack;
import org.jgroups.util.MessageBatch;

/**
 * Notices, before the view changes, that a member has most likely died: a JGroups protocol placed
 * above the socket failure detector (or the transport) that sees the suspicions raised below it. A
 * TCP transport with {@code enable_suspect_events} raises one when a member's connection closes
 * without a goodbye (a killed process's sockets close at once); FD_SOCK2 raises one, on the member
 * next in line to coordinate, when its neighbour's socket closes. JGroups then verifies the
 * suspicion ({@code VERIFY_SUSPECT2}, 1.5 s by default) before the view drops the member; until then
 * answers and acknowledgements owed by a suspected member are not waited for.
 *
 * <p>A member stops being suspected when anything arrives from it, when JGroups' verification finds
 * it alive, or when it leaves the view. Thread-safe: suspicions arrive on JGroups' threads; the
 * listener is called on them and must not block.
 */
final class SuspicionWatch extends Protocol {

    private final Set<Address> suspected = ConcurrentHashMap.newKeySet();
    private final Consumer<Address> onSuspected;
    private volatile boolean anySuspected;

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
        return anySuspected && address != null && suspected.contains(address);
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
                if (suspected.retainAll(view.getMembers())) {
                    anySuspected = !suspected.isEmpty();
                }
            }
            default -> {
            }
        }
        return down_prot.down(event);
    }

    @Override
    public Object up(Message message) {
        if (anySuspected) {
            clear(message.src());
        }
        return up_prot.up(message);
    }

    @Override
    public void up(MessageBatch batch) {
        if (anySuspected) {
            clear(batch.sender());
        }
        up_prot.up(batch);
    }

    private void suspect(Collection<Address> addresses) {
        for (Address address : addresses) {
            if (address != null && !address.equals(local_addr) && suspected.add(address)) {
                anySuspected = true;
                log.debug("%s: %s is suspected", local_addr, address);
                onSuspected.accept(address);
            }
        }
    }

    private void clear(Address address) {
        if (address != null && suspected.remove(address)) {
            anySuspected = !suspected.isEmpty();
            log.debug("%s: %s is no longer suspected", local_addr, address);
        }
    }
}
