package io.cohort.replication.group;

import io.cohort.metrics.OncePerKind;
import io.micrometer.core.instrument.Counter;
import java.util.function.Function;
import org.jgroups.Message;
import org.jgroups.protocols.Discovery;
import org.jgroups.protocols.Encrypt;
import org.jgroups.protocols.FRAG2;
import org.jgroups.protocols.FragHeader;
import org.jgroups.protocols.TP;
import org.jgroups.stack.Protocol;
import org.jgroups.stack.ProtocolStack;
import org.jgroups.util.Bits;
import org.jgroups.util.MessageBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drops what arrives from the network and must go no further up the stack: right above the transport, messages
 * {@link ArrivalGuards} refused while reading them; right below {@code SYM_ENCRYPT}, messages that are not encrypted
 * (which it would drop too, but log at ERROR each time, so anyone reaching the port could fill the log); right below
 * {@code FRAG2}, fragments claiming more fragments than a message can have (FRAG2 sets an array aside for as many as
 * the unauthenticated header says: 2 GiB of references for one small message); right below discovery, a discovery
 * message claiming more members' data than its bytes hold (discovery sizes a list by it). Each drop is counted in
 * {@code cohort.replication.messages.rejected}; each kind is logged once. Thread-safe.
 */
final class ArrivalGate extends Protocol {

    private static final Logger LOG = LoggerFactory.getLogger(ArrivalGate.class);
    private static final int MAX_KINDS_LOGGED = 64;

    /** Why a message is refused, or {@code null} to pass it on. */
    private final Function<Message, String> refusal;
    private final Counter rejected;
    private final OncePerKind kindsLogged = new OncePerKind(MAX_KINDS_LOGGED);

    private ArrivalGate(Function<Message, String> refusal, Counter rejected) {
        this.refusal = refusal;
        this.rejected = rejected;
    }

    /**
     * Puts the gates into {@code stack} before the channel connects: one above the transport, one below discovery, one
     * below {@code SYM_ENCRYPT} if the stack encrypts, and one below {@code FRAG2} if it fragments with it.
     */
    static void insertInto(ProtocolStack stack, Counter rejected) throws Exception {
        stack.insertProtocol(new ArrivalGate(ArrivalGate::refusedWhileRead, rejected), ProtocolStack.Position.ABOVE,
                TP.class);
        Encrypt<?> encrypt = stack.findProtocol(Encrypt.class);
        if (encrypt != null) {
            if (encrypt instanceof CountedSymEncrypt counted) {
                counted.countFailuresIn(rejected);
            }
            short encryptId = encrypt.getId();
            stack.insertProtocol(new ArrivalGate(message -> message.getHeader(encryptId) == null
                    ? "a message that is not encrypted" : null, rejected), ProtocolStack.Position.BELOW, encrypt.getClass());
        }
        Discovery discovery = stack.findProtocol(Discovery.class);
        if (discovery != null) {
            short discoveryId = discovery.getId();
            stack.insertProtocol(new ArrivalGate(message -> impossibleDiscovery(message, discoveryId), rejected),
                    ProtocolStack.Position.BELOW, discovery.getClass());
        }
        FRAG2 fragmentation = stack.findProtocol(FRAG2.class);
        if (fragmentation != null) {
            short fragmentationId = fragmentation.getId();
            stack.insertProtocol(new ArrivalGate(message -> impossibleFragment(message.getHeader(fragmentationId),
                    fragmentation.getFragSize()), rejected), ProtocolStack.Position.BELOW, FRAG2.class);
        }
    }

    /**
     * A discovery message whose payload claims more members' data than it has bytes for (Discovery sizes a list by
     * that count before reading any of them).
     */
    static String impossibleDiscovery(Message message, short discoveryId) {
        if (message.getHeader(discoveryId) == null || !message.hasArray() || message.getLength() < Integer.BYTES) {
            return null;
        }
        int count = Bits.readInt(message.getArray(), message.getOffset());
        return count < 0 || count > message.getLength() ? "discovery data for more members than its bytes hold" : null;
    }

    /** A fragment no message can have: more fragments than the largest array split into pieces of {@code size}. */
    static String impossibleFragment(FragHeader header, int size) {
        if (header == null) {
            return null;
        }
        long most = Integer.MAX_VALUE / Math.max(1, size) + 1;
        if (header.num_frags < 1 || header.num_frags > most || header.frag_id < 0 || header.frag_id >= header.num_frags) {
            return "a fragment " + header.frag_id + " of " + header.num_frags + ", beyond what a message can have";
        }
        return null;
    }

    private static String refusedWhileRead(Message message) {
        return message instanceof RefusedOnArrival refused ? refused.refusal() : null;
    }

    @Override
    public Object up(Message message) {
        String why = refusal.apply(message);
        if (why != null) {
            refuse(message, why);
            return null;
        }
        return up_prot.up(message);
    }

    @Override
    public void up(MessageBatch batch) {
        batch.removeIf(message -> {
            String why = refusal.apply(message);
            if (why != null) {
                refuse(message, why);
            }
            return why != null;
        }, true);
        if (!batch.isEmpty()) {
            up_prot.up(batch);
        }
    }

    private void refuse(Message message, String why) {
        rejected.increment();
        String kind = why.replaceAll("[0-9]+", "#");
        if (kindsLogged.first(kind)) {
            LOG.warn("{}: refused a message from {} as it arrived: {} (further refusals of this kind are only counted "
                    + "in cohort.replication.messages.rejected)", local_addr, message.getSrc(), why);
        }
    }
}
