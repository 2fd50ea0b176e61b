package io.cohort.replication.group;

import java.io.DataInput;
import org.jgroups.Address;
import org.jgroups.protocols.TCP;

/**
 * JGroups' blocking TCP transport ({@code -Dcohort.transport=TCP}), reading each received message into a buffer of
 * the length its connection announced (at most {@code max_length}) before parsing it, as the other transports do.
 * JGroups' own TCP parses straight from the socket: a length field inside a message could then not be checked against
 * the bytes that arrived ({@link ArrivalInput}), and a message refused half-read left the rest of it in the stream.
 */
public class BufferedTcp extends TCP {

    @Override
    public void receive(Address sender, DataInput in, int length) throws Exception {
        byte[] message = new byte[length];
        in.readFully(message);
        receive(sender, message, 0, length);
    }
}
