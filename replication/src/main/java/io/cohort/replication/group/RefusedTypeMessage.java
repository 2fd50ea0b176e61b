package io.cohort.replication.group;

import java.io.DataInput;
import java.io.IOException;
import org.jgroups.EmptyMessage;

/**
 * What arrives as a message type that neither Cohort nor the protocols of its stacks send (NIO, composite, fragmented
 * and batch messages): read up to its headers, its payload skipped unread, refused. JGroups would size arrays by
 * their length and count fields before any authentication.
 */
final class RefusedTypeMessage extends EmptyMessage implements RefusedOnArrival {

    private final short type;

    RefusedTypeMessage(short type) {
        this.type = type;
    }

    @Override
    public void readPayload(DataInput in) throws IOException {
        ArrivalInput.skipRest(in);
    }

    @Override
    public String refusal() {
        return "a message of JGroups type " + type;
    }
}
