package io.cohort.replication.group;

import org.jgroups.Message;
import org.jgroups.MessageFactory;

/**
 * Puts guards on what JGroups builds from the bytes a transport receives. JGroups reads every message in full, payload
 * included, before any protocol sees it, so neither {@code AUTH} nor {@code SYM_ENCRYPT} protects that step: an
 * object message from anyone who reaches the port was Java-deserialized without a filter, and length fields sized
 * arrays before a byte of them arrived. With the guards, the message types JGroups' factory builds are
 * {@link BoundedBytesMessage}, {@link StreamableObjectMessage} and {@link RefusedTypeMessage} (for the types nothing
 * in Cohort's stacks sends); a refused message goes up as {@link RefusedOnArrival} and {@link ArrivalGate} drops it.
 *
 * <p>JGroups keeps its message factory per process, so the guards hold for every channel of the process once installed.
 * A stack that needs FRAG4, BATCH2 or NIO messages does not work with them.
 */
final class ArrivalGuards extends MessageFactory {

    private ArrivalGuards() {
    }

    /** Installs the guards; idempotent, and done before any channel of Cohort's is created. */
    static synchronized void install() {
        creators[Message.BYTES_MSG] = BoundedBytesMessage::new;
        creators[Message.OBJ_MSG] = StreamableObjectMessage::new;
        for (short type : new short[] {Message.NIO_MSG, Message.COMPOSITE_MSG, Message.FRAG_MSG, Message.EARLYBATCH_MSG}) {
            creators[type] = () -> new RefusedTypeMessage(type);
        }
    }
}
