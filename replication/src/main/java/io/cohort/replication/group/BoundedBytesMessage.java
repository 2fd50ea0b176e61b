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
        if (isFlagSet(Flag.SERIALIZED)) {
            refuse(in, "a Java-serialized payload");
            return;
        }
        int declared = in.readInt();
        if (declared < 0) {
            return;
        }
        if (declared > ArrivalInput.remaining(in)) {
            refuse(in, "a payload length beyond the bytes received");
            return;
        }
        array = new byte[declared];
        in.readFully(array, 0, declared);
        length = declared;
    }

    private void refuse(DataInput in, String why) throws IOException {
        refusal = why;
        ArrivalInput.skipRest(in);
    }

    @Override
    public String refusal() {
        return refusal;
    }
}
