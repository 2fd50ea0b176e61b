package io.cohort.replication.group;

import io.cohort.replication.wire.FrameSeal;
import io.cohort.replication.wire.MalformedMessageException;
import io.cohort.replication.wire.ToAllBeforeMarkException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jgroups.Address;

/**
 * Opens the sealed messages that arrive ({@link FrameSeal}) and hands their payloads to the {@link Inbox}, or tells it
 * why one was refused. A message to all that arrives before its sender's first message to this member
 * ({@link ToAllBeforeMarkException}) waits instead of being refused: multicast and unicast travel apart, so a member that
 * just joined often gets a sender's first messages to all before its greeting, and dropping them would leave gaps for
 * the owners to repair. They wait per sender, in arrival order, and are opened again and delivered once a message of
 * the sender's own to this member got through; while a sender has messages waiting, its later messages to all queue
 * behind them, so they are delivered in the order they came.
 *
 * <p>Only messages whose seal verified wait (the exception is thrown after the check, so only a member with the secret
 * can have sent them), at most {@value #MAX_MESSAGES} messages and {@value #MAX_BYTES} bytes in all; beyond that a
 * message is refused as before. They may come before this member's view lists their sender (the view and the first
 * messages of a new member race); a view that does not list the sender refuses what waits for it. Thread-safe; a
 * sender's waiting messages are delivered under that sender's lock.
 */
final class SealedArrivals {

    static final int MAX_MESSAGES = 8_192;
    static final int MAX_BYTES = 16 * 1024 * 1024;

    private final FrameSeal seal;
    private final Function<Address, byte[]> identities;
    private final Supplier<byte[]> self;
    private final Inbox inbox;
    private final ConcurrentMap<Address, Backlog> backlogs = new ConcurrentHashMap<>();
    private final AtomicInteger heldMessages = new AtomicInteger();
    private final AtomicLong heldBytes = new AtomicLong();

    /**
     * @param identities a member's identity as seals name it, from its address
     * @param self       this member's identity
     */
    SealedArrivals(FrameSeal seal, Function<Address, byte[]> identities, Supplier<byte[]> self, Inbox inbox) {
        this.seal = seal;
        this.identities = identities;
        this.self = self;
        this.inbox = inbox;
    }

    /** A sealed message arrived from {@code from}: opens it and delivers it, or holds it, or refuses it. */
    void deliver(Address from, byte[] buffer, int offset, int length) {
        if (queuedBehindWaiting(from, buffer, offset, length)) {
            return;
        }
        int payload;
        try {
            payload = open(from, buffer, offset, length);
        } catch (ToAllBeforeMarkException e) {
            if (!hold(from, backlogs.computeIfAbsent(from, sender -> new Backlog()), buffer, offset, length)) {
                deliverNow(from, buffer, offset, length); // the wait ended meanwhile
            }
            return;
        } catch (MalformedMessageException e) {
            inbox.rejected(from, e.getMessage());
            return;
        }
        inbox.frame(from, buffer, offset, payload);
        if (!FrameSeal.isToAll(buffer, offset, length)) {
            heardFrom(from);
        }
    }

    private void deliverNow(Address from, byte[] buffer, int offset, int length) {
        try {
            inbox.frame(from, buffer, offset, open(from, buffer, offset, length));
        } catch (MalformedMessageException e) {
            inbox.rejected(from, e.getMessage());
        }
    }

    /**
     * A message to all while its sender has messages waiting queues behind them, once its seal verified; returns false
     * if the message is not such a one (it is opened as usual).
     */
    private boolean queuedBehindWaiting(Address from, byte[] buffer, int offset, int length) {
        Backlog backlog = FrameSeal.isToAll(buffer, offset, length) ? backlogs.get(from) : null;
        if (backlog == null) {
            return false;
        }
        if (!seal.verifies(buffer, offset, length, identities.apply(from), self.get())) {
            inbox.rejected(from, "message seal does not verify (sender lacks the cluster secret)");
            return true; // what is not verified never waits
        }
        return hold(from, backlog, buffer, offset, length);
    }

    /**
     * Adds a verified message to all to its sender's backlog (refused when everything held is at the cap) and delivers
     * what may be delivered; returns false if the backlog closed meanwhile (nothing waits for that sender any more).
     */
    private boolean hold(Address from, Backlog backlog, byte[] buffer, int offset, int length) {
        synchronized (backlog) {
            if (backlog.closed) {
                return false;
            }
            if (heldMessages.get() >= MAX_MESSAGES || heldBytes.get() + length > MAX_BYTES) {
                inbox.rejected(from, "a message to all before any message of the sender's own to this member, more "
                        + "than this member holds");
                return true;
            }
            backlog.add(Arrays.copyOfRange(buffer, offset, offset + length));
        }
        drain(from, backlog);
        return true;
    }

    /** A message of {@code from}'s own to this member got through: what waits for that sender can be opened now. */
    private void heardFrom(Address from) {
        Backlog backlog = backlogs.get(from);
        if (backlog != null) {
            drain(from, backlog);
        }
    }

    /** The view changed: what waits for a sender the view does not list is refused. */
    void view(Set<Address> members) {
        backlogs.forEach((sender, backlog) -> {
            if (!members.contains(sender)) {
                synchronized (backlog) {
                    backlog.closed = true;
                    backlogs.remove(sender, backlog);
                    while (!backlog.messages.isEmpty()) {
                        backlog.remove();
                        inbox.rejected(sender, "a message to all from a member that left before any message of its "
                                + "own to this member");
                    }
                }
            }
        });
    }

    /** Messages waiting, over all senders. */
    int waiting() {
        return heldMessages.get();
    }

    private int open(Address from, byte[] buffer, int offset, int length) throws MalformedMessageException {
        return seal.open(buffer, offset, length, identities.apply(from), self.get());
    }

    /** Delivers the sender's waiting messages in order until one still has no mark; closes the backlog once empty. */
    private void drain(Address from, Backlog backlog) {
        synchronized (backlog) {
            while (!backlog.messages.isEmpty()) {
                byte[] next = backlog.messages.peek();
                int length;
                try {
                    length = open(from, next, 0, next.length);
                } catch (ToAllBeforeMarkException e) {
                    return; // the sender's own message has not got through yet
                } catch (MalformedMessageException e) {
                    backlog.remove();
                    inbox.rejected(from, e.getMessage());
                    continue;
                }
                backlog.remove();
                inbox.frame(from, next, 0, length);
            }
            backlog.closed = true;
            backlogs.remove(from, backlog);
        }
    }

    /** One sender's waiting messages. Guarded by itself. */
    private final class Backlog {
        final ArrayDeque<byte[]> messages = new ArrayDeque<>();
        boolean closed;

        void add(byte[] message) {
            messages.add(message);
            heldMessages.incrementAndGet();
            heldBytes.addAndGet(message.length);
        }

        void remove() {
            byte[] head = messages.poll();
            heldMessages.decrementAndGet();
            heldBytes.addAndGet(-head.length);
        }
    }
}
