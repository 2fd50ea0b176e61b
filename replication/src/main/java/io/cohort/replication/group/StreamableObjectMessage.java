package io.cohort.replication.group;

import java.io.DataInput;
import java.io.IOException;
import org.jgroups.ObjectMessage;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.util.ByteArrayDataInputStream;
import org.jgroups.util.ByteArrayDataOutputStream;
import org.jgroups.util.Digest;
import org.jgroups.util.MutableDigest;
import org.jgroups.util.SeqnoList;
import org.jgroups.util.SizeStreamable;

/**
 * JGroups' object message, as read from the network, for the objects its own protocols send in one: digests (STABLE)
 * and lists of missing sequence numbers (NAKACK2, UNICAST3 retransmission requests). Any other object is refused
 * unread: JGroups would otherwise build a class named by the sender or Java-deserialize the payload, with no filter,
 * before any authentication. A sequence number list whose size needs more words than the bytes that arrived is
 * refused before JGroups allocates them.
 */
final class StreamableObjectMessage extends ObjectMessage implements RefusedOnArrival {

    private static final short DIGEST = ClassConfigurator.getMagicNumber(Digest.class);
    private static final short MUTABLE_DIGEST = ClassConfigurator.getMagicNumber(MutableDigest.class);
    private static final short SEQNO_LIST = ClassConfigurator.getMagicNumber(SeqnoList.class);

    private String refusal;

    @Override
    public void readPayload(DataInput in) throws IOException, ClassNotFoundException {
        if (in.readByte() == 0) {
            return; // no object
        }
        short type = in.readShort();
        if (type == SEQNO_LIST) {
            obj = readSeqnoList(in);
        } else if (type == DIGEST || type == MUTABLE_DIGEST) {
            SizeStreamable digest = ClassConfigurator.create(type);
            digest.readFrom(in);
            obj = digest;
        } else {
            refuse(in, type == -1 ? "an object of a class the sender names" : "an object of JGroups type " + type);
        }
    }

    /** {@link SeqnoList#readFrom}, once the words its size needs are known to have arrived. */
    private SeqnoList readSeqnoList(DataInput in) throws IOException {
        int size = in.readInt();
        long offset = in.readLong();
        long words = size <= 0 ? 0 : ((size - 1L) >> 6) + 1;
        if (size < 0 || words * Long.BYTES > ArrivalInput.remaining(in)) {
            refuse(in, "a sequence number list larger than the bytes received");
            return null;
        }
        ByteArrayDataOutputStream copy = new ByteArrayDataOutputStream(Integer.BYTES + Long.BYTES * (int) (words + 1));
        copy.writeInt(size);
        copy.writeLong(offset);
        for (long i = 0; i < words; i++) {
            copy.writeLong(in.readLong());
        }
        SeqnoList list = new SeqnoList();
        list.readFrom(new ByteArrayDataInputStream(copy.buffer(), 0, copy.position()));
        return list;
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
