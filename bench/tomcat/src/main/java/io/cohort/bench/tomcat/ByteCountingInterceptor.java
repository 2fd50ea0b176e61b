package io.cohort.bench.tomcat;

import org.apache.catalina.tribes.ChannelException;
import org.apache.catalina.tribes.ChannelMessage;
import org.apache.catalina.tribes.Member;
import org.apache.catalina.tribes.group.ChannelInterceptorBase;
import org.apache.catalina.tribes.group.InterceptorPayload;
import org.apache.catalina.tribes.io.ChannelData;

/**
 * Counts the bytes of every channel message as Tribes puts it on the wire: the message's data package
 * ({@link ChannelData#getDataPackageLength()}: header, sender, unique id, payload and framing) once per
 * destination member when sending, once when receiving. Placed last in the channel's interceptor stack,
 * so it sees what the transport sends, including the ping and failure-detector messages of the
 * interceptors above it; TCP/IP headers and acknowledgements are not counted.
 */
final class ByteCountingInterceptor extends ChannelInterceptorBase {

    private final ChannelBytes bytes;

    ByteCountingInterceptor(ChannelBytes bytes) {
        this.bytes = bytes;
    }

    @Override
    public void sendMessage(Member[] destination, ChannelMessage msg, InterceptorPayload payload)
            throws ChannelException {
        if (msg instanceof ChannelData data && destination != null) {
            bytes.sent((long) data.getDataPackageLength() * destination.length);
        }
        super.sendMessage(destination, msg, payload);
    }

    @Override
    public void messageReceived(ChannelMessage msg) {
        if (msg instanceof ChannelData data) {
            bytes.received(data.getDataPackageLength());
        }
        super.messageReceived(msg);
    }
}
