package io.cohort.replication.group;

import java.io.DataInput;
import java.io.IOException;
import org.jgroups.BytesMessage;

/**
 * The message type Cohort sends, as read from the network: a payload length beyond the bytes that arrived is refused
 * before an array is allocated for it (JGroups allocates whatever the length field says, up to 2 GiB), and so is a
 * Java-serialized payload (JGroups would deserialize it, unfiltered, when a protocol asks for the object).
 */
final class BoundedBytesMessage extends BytesMessage implements RefusedOnArrival {

    private String refusal;

    @Override
    public void readPayload(DataInput in) throws IOException {
        int declared = in.readInt();
        if (declared < 0) {
            return;
        }
        if (declared > ArrivalInput.remaining(in)) {
            refusal = "a payload length beyond the bytes received";
            ArrivalInput.skipRest(in);
            return;
        }
        if (isFlagSet(Flag.SERIALIZED)) {
            refusal = "a Java-serialized payload";
            in.skipBytes(declared); // unread; the messages after it in a bundle still parse
            return;
        }
        array = new byte[declared];
        in.readFully(array, 0, declared);
        length = declared;
    }

    @Override
    public String refusal() {
        return refusal;
    }
}
