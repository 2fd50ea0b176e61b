package io.cohort.replication.group;

import io.cohort.replication.wire.MalformedMessageException;
import io.cohort.replication.wire.ReplicationMessage;
import io.cohort.replication.wire.ReplicationMessage.LookupReply;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.Message;
import org.jgroups.PhysicalAddress;
import org.jgroups.JChannel;
import org.jgroups.protocols.DISCARD;
import org.jgroups.protocols.TP;
import org.jgroups.stack.Protocol;
import org.jgroups.stack.ProtocolStack;
import org.jgroups.util.MessageBatch;

/** Breaks a member's network on purpose, and sends what a well-behaved member never would. */
final class GroupFaults {

    private GroupFaults() {
    }

    /** Cuts the member off: it drops everything it would send or receive (a network partition). */
    static DISCARD isolate(TestMember member) throws Exception {
        JChannel channel = member.service().channel().channel();
        DISCARD discard = new DISCARD().discardAll(true).setAddress(channel.getAddress());
        channel.getProtocolStack().insertProtocol(discard, ProtocolStack.Position.ABOVE, TP.class);
        return discard;
    }

    /** Reconnects a member cut off by {@link #isolate}. */
    static void heal(TestMember member) {
        JChannel channel = member.service().channel().channel();
        DISCARD discard = channel.getProtocolStack().findProtocol(DISCARD.class);
        if (discard != null) {
            discard.discardAll(false);
        }
    }

    static Address address(TestMember member) {
        return member.service().channel().channel().getAddress();
    }

    /** Sends a message from {@code from} to {@code to}, encoded (and sealed) with {@code from}'s keys. */
    static void send(TestMember from, TestMember to, ReplicationMessage message) {
        byte[] frame = from.service().codec().encode(message);
        from.service().channel().send(address(to), frame, false);
    }

    /** Lets {@code from} reach {@code to} without being in its group (tells it {@code to}'s physical address). */
    static void introduce(TestMember from, TestMember to) {
        JChannel target = to.service().channel().channel();
        PhysicalAddress physical = (PhysicalAddress) target.down(new Event(Event.GET_PHYSICAL_ADDRESS, target.getAddress()));
        from.service().channel().channel().getProtocolStack().getTransport()
                .addPhysicalAddressToCache(target.getAddress(), physical);
    }

    /** Sends raw bytes from {@code from} to {@code to}. */
    static void sendRaw(TestMember from, TestMember to, byte[] frame) {
        from.service().channel().send(address(to), frame, false);
    }

    /**
     * Records, at {@code at}, the payload of every message {@code from} sends it, as it came off the network (with its
     * seal, in a secured group), and passes it on: what an eavesdropper on the link could capture.
     */
    static List<byte[]> recordFrom(TestMember from, TestMember at) {
        List<byte[]> captured = new java.util.concurrent.CopyOnWriteArrayList<>();
        Address sender = address(from);
        at.service().channel().channel().getProtocolStack().insertProtocolAtTop(new Protocol() {
            @Override
            public Object up(Message message) {
                record(message);
                return up_prot.up(message);
            }

            @Override
            public void up(MessageBatch batch) {
                batch.forEach(this::record);
                up_prot.up(batch);
            }

            private void record(Message message) {
                if (sender.equals(message.getSrc()) && message.hasArray() && message.getLength() > 0) {
                    captured.add(java.util.Arrays.copyOfRange(message.getArray(), message.getOffset(),
                            message.getOffset() + message.getLength()));
                }
            }
        });
        return captured;
    }

    /**
     * Sends {@code payload} from {@code outsider}'s network connection to {@code to} as though {@code claimedSender}
     * sent it (a spoofed source address, and no reliable-delivery header, which the outsider could not fake): a
     * replay of a captured message.
     */
    static void replay(TestMember outsider, TestMember claimedSender, TestMember to, byte[] payload) throws Exception {
        Message message = new org.jgroups.BytesMessage(address(to), payload).setSrc(address(claimedSender))
                .setFlag(Message.Flag.NO_RELIABILITY);
        outsider.service().channel().channel().send(message);
    }

    /**
     * Keeps everything {@code from} sends to {@code at} but its answers to lookups from reaching the
     * replication layer of {@code at} for good (above the stack's retransmissions): as if its changes
     * were still on their way. Closing the returned handle lets later messages through again.
     */
    static AutoCloseable holdBackAllButLookupRepliesFrom(TestMember from, TestMember at) {
        return holdBack(new HoldBack(address(from), at, true), at);
    }

    /** Keeps everything {@code from} sends from reaching the replication layer of {@code at}, until closed. */
    static AutoCloseable holdBackAllFrom(TestMember from, TestMember at) {
        return holdBack(new HoldBack(address(from), at, false), at);
    }

    /**
     * Makes {@code from} lose everything its replication layer sends to a single member other than {@code kept}
     * (multicasts still go out), until closed: its copies to a member that joins are lost on the way, as though
     * still in flight when {@code from} crashes.
     */
    static AutoCloseable loseUnicastsExceptTo(TestMember from, TestMember kept) {
        Address keptAddress = address(kept);
        Protocol losing = new Protocol() {
            @Override
            public Object down(Message message) {
                Address to = message.getDest();
                return to != null && !to.equals(keptAddress) && message.getLength() > 0 ? null : down_prot.down(message);
            }
        };
        ProtocolStack stack = from.service().channel().channel().getProtocolStack();
        stack.insertProtocolAtTop(losing);
        return () -> stack.removeProtocol(losing);
    }

    /**
     * Holds back everything {@code from}'s replication layer sends, on its way out, until closed; closing lets it go, in
     * the order it was sent, before anything sent later: the window in which an asynchronous owner's changes are still
     * queued, with none of them at the holders yet.
     */
    static AutoCloseable holdOutgoing(TestMember from) {
        ProtocolStack stack = from.service().channel().channel().getProtocolStack();
        Protocol holding = new Protocol() {
            private final List<Message> held = new java.util.ArrayList<>();
            private boolean open;

            @Override
            public synchronized Object down(Message message) {
                if (open || message.getLength() == 0) {
                    return down_prot.down(message);
                }
                held.add(message);
                return null;
            }

            @Override
            public synchronized void stop() {
                open = true;
                held.forEach(down_prot::down);
                held.clear();
            }
        };
        stack.insertProtocolAtTop(holding);
        return () -> {
            holding.stop();
            stack.removeProtocol(holding);
        };
    }

    /**
     * Makes {@code at} apply every session change from {@code from} {@code delay} late, until closed: the thread that
     * delivers the change waits before handing it to the replication layer, as a holder under load does, so its
     * acknowledgement comes that much later.
     */
    static Delay delayChangesFrom(TestMember from, TestMember at, Duration delay) {
        Delay slow = new Delay(address(from), at, delay);
        ProtocolStack stack = at.service().channel().channel().getProtocolStack();
        stack.insertProtocolAtTop(slow);
        return slow;
    }

    /** What {@link #delayChangesFrom} put into a member's stack; closing it takes it out. */
    static final class Delay extends Protocol implements AutoCloseable {
        private final Address sender;
        private final TestMember at;
        private final Duration delay;
        private final AtomicInteger delayed = new AtomicInteger();

        private Delay(Address sender, TestMember at, Duration delay) {
            this.sender = sender;
            this.at = at;
            this.delay = delay;
        }

        /** How many changes have begun their delay so far: they arrived. */
        int delayed() {
            return delayed.get();
        }

        @Override
        public Object up(Message message) {
            waitIfChange(message.getSrc(), message);
            return up_prot.up(message);
        }

        @Override
        public void up(MessageBatch batch) {
            for (Message message : batch) {
                if (waitIfChange(message.getSrc() != null ? message.getSrc() : batch.sender(), message)) {
                    break;
                }
            }
            up_prot.up(batch);
        }

        private boolean waitIfChange(Address source, Message message) {
            if (!sender.equals(source) || message.getLength() == 0 || !isChange(message)) {
                return false;
            }
            delayed.incrementAndGet();
            try {
                Thread.sleep(delay.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return true;
        }

        private boolean isChange(Message message) {
            try {
                return at.service().codec().decode(message.getArray(), message.getOffset(), message.getLength())
                        instanceof ReplicationMessage.SessionUpdate;
            } catch (MalformedMessageException bundle) {
                return false;
            }
        }

        @Override
        public void close() {
            at.service().channel().channel().getProtocolStack().removeProtocol(this);
        }
    }

    private static AutoCloseable holdBack(HoldBack holdBack, TestMember at) {
        JChannel channel = at.service().channel().channel();
        ProtocolStack stack = channel.getProtocolStack();
        stack.insertProtocolAtTop(holdBack);
        return () -> stack.removeProtocol(holdBack);
    }

    private static final class HoldBack extends Protocol {
        private final Address sender;
        private final TestMember at;
        private final boolean passLookupReplies;

        HoldBack(Address sender, TestMember at, boolean passLookupReplies) {
            this.sender = sender;
            this.at = at;
            this.passLookupReplies = passLookupReplies;
        }

        @Override
        public Object up(Message message) {
            return heldBack(message) ? null : up_prot.up(message);
        }

        @Override
        public void up(MessageBatch batch) {
            batch.removeIf(this::heldBack, true);
            if (!batch.isEmpty()) {
                up_prot.up(batch);
            }
        }

        private boolean heldBack(Message message) {
            if (!sender.equals(message.getSrc()) || message.getLength() == 0) {
                return false;
            }
            if (!passLookupReplies) {
                return true;
            }
            try {
                return !(at.service().codec().decode(message.getArray(), message.getOffset(), message.getLength())
                        instanceof LookupReply);
            } catch (MalformedMessageException bundle) {
                return true;
            }
        }
    }
}
