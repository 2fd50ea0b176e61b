package io.cohort.replication.group;

import io.cohort.cluster.ClusterView;
import io.cohort.cluster.Member;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.jgroups.Address;
import org.jgroups.MergeView;
import org.jgroups.View;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster view fed by the JGroups group: the members of the current JGroups view whose
 * {@link Member} data this node has received (each member greets those that join with a Hello), in
 * JGroups view order, which is the same on every member for the same view. A member that joined but
 * has not greeted yet is not listed; it appears (and listeners hear of it) when its Hello arrives.
 *
 * <p>Listeners run one at a time on a dedicated thread, in the order of the changes, never on a
 * JGroups thread. Thread-safe.
 */
final class GroupMembership implements ClusterView, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GroupMembership.class);
    private static final int MAX_EARLY_HELLOS = 1024;

    private final Member self;
    private final Map<Address, Member> known = new ConcurrentHashMap<>();
    /** Hellos that arrived before the view that contains their sender (bounded). */
    private final Map<Address, Member> early = new ConcurrentHashMap<>();
    private final List<Consumer<List<Member>>> listeners = new CopyOnWriteArrayList<>();
    private final ExecutorService notifier;
    private volatile Address selfAddress;
    private volatile List<Address> viewMembers = List.of();
    private volatile Snapshot snapshot;

    /**
     * The members, those other than this node (asked for on every replicated change, so kept rather than filtered
     * each time) and the address of each, replaced as a whole.
     */
    private record Snapshot(List<Member> members, List<Member> others, Map<String, Address> addresses) {
        Snapshot(List<Member> members, Map<String, Address> addresses, String self) {
            this(members, members.stream().filter(m -> !m.name().equals(self)).toList(), addresses);
        }
    }

    GroupMembership(Member self) {
        this.self = Objects.requireNonNull(self, "self");
        this.snapshot = new Snapshot(List.of(self), Map.of(), self.name());
        this.notifier = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "cohort-membership-" + self.name());
            thread.setDaemon(true);
            return thread;
        });
    }

    void joined(Address address) {
        this.selfAddress = address;
        known.put(address, self);
    }

    @Override
    public Member self() {
        return self;
    }

    @Override
    public List<Member> members() {
        return snapshot.members();
    }

    /** The members other than this node. */
    List<Member> others() {
        return snapshot.others();
    }

    @Override
    public AutoCloseable onChange(Consumer<List<Member>> listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    /** Where to send to the member with this name, if it is in the view and known. */
    Optional<Address> addressOf(String name) {
        return Optional.ofNullable(snapshot.addresses().get(name));
    }

    /**
     * Where to send to each member in the view that greeted, by name: a member restarted under its name shows as a
     * new address behind the same name.
     */
    Map<String, Address> addresses() {
        return snapshot.addresses();
    }

    /** The name of the member at this address; its JGroups logical name if it has not greeted yet. */
    String nameOf(Address address) {
        Member member = known.get(address);
        return member != null ? member.name() : String.valueOf(address);
    }

    Address selfAddress() {
        return selfAddress;
    }

    /** The addresses of the view's members other than this node, named or not yet. */
    List<Address> otherViewMembers() {
        Address me = selfAddress;
        return viewMembers.stream().filter(a -> !a.equals(me)).toList();
    }

    /**
     * Installs a new JGroups view.
     *
     * @return the addresses to greet: those that joined since the previous view, or after a merge
     *     every other member (the other side may have forgotten this node while the groups were split,
     *     even if this node never noticed the split)
     */
    List<Address> viewChanged(View view) {
        List<Address> previous = viewMembers;
        viewMembers = List.copyOf(view.getMembers());
        known.keySet().retainAll(viewMembers);
        early.forEach((address, member) -> {
            if (viewMembers.contains(address)) {
                known.put(address, member);
                early.remove(address);
            }
        });
        if (selfAddress != null) {
            known.put(selfAddress, self);
        }
        boolean merge = view instanceof MergeView;
        List<Address> greet = viewMembers.stream()
                .filter(a -> (merge || !previous.contains(a)) && !a.equals(selfAddress)).toList();
        publish();
        return greet;
    }

    /**
     * A member told us who it is.
     *
     * @return whether it was a stranger, which should then be greeted back (it may not know us either)
     */
    boolean greeted(Address address, Member member) {
        if (!viewMembers.contains(address)) {
            if (early.size() > MAX_EARLY_HELLOS) {
                early.clear();
            }
            return early.put(address, member) == null; // its view will come
        }
        Member previous = known.put(address, member);
        if (!member.equals(previous)) {
            publish();
        }
        return previous == null;
    }

    private synchronized void publish() {
        Map<String, Address> addresses = new LinkedHashMap<>();
        Map<String, Member> byName = new LinkedHashMap<>();
        for (Address address : viewMembers) {
            Member member = known.get(address);
            if (member != null) {
                byName.remove(member.name()); // a restarted member under the same name: the newest wins
                byName.put(member.name(), member);
                addresses.put(member.name(), address);
            }
        }
        if (!byName.containsKey(self.name())) {
            byName.put(self.name(), self);
        }
        List<Member> members = List.copyOf(new ArrayList<>(byName.values()));
        if (members.equals(snapshot.members()) && addresses.equals(snapshot.addresses())) {
            return;
        }
        snapshot = new Snapshot(members, Map.copyOf(addresses), self.name());
        LOG.info("{}: cluster members {}", self.name(), members.stream().map(Member::name).toList());
        if (notifier.isShutdown()) {
            return;
        }
        notifier.execute(() -> {
            for (Consumer<List<Member>> listener : listeners) {
                try {
                    listener.accept(members);
                } catch (RuntimeException e) {
                    LOG.warn("A cluster view listener failed", e);
                }
            }
        });
    }

    @Override
    public synchronized void close() {
        notifier.shutdownNow();
    }
}
