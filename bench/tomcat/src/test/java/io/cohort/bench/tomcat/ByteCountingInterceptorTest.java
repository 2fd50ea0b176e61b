package io.cohort.bench.tomcat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.catalina.tribes.ChannelMessage;
import org.apache.catalina.tribes.Member;
import org.apache.catalina.tribes.group.ChannelInterceptorBase;
import org.apache.catalina.tribes.group.InterceptorPayload;
import org.apache.catalina.tribes.io.ChannelData;
import org.apache.catalina.tribes.io.XByteBuffer;
import org.apache.catalina.tribes.membership.MemberImpl;
import org.junit.jupiter.api.Test;

class ByteCountingInterceptorTest {

    /** The next interceptor down: records what it was handed. */
    private static final class Below extends ChannelInterceptorBase {
        final List<ChannelMessage> sent = new ArrayList<>();

        @Override
        public void sendMessage(Member[] destination, ChannelMessage msg, InterceptorPayload payload) {
            sent.add(msg);
        }
    }

    /** The next interceptor up: records what it was handed. */
    private static final class Above extends ChannelInterceptorBase {
        final List<ChannelMessage> received = new ArrayList<>();

        @Override
        public void messageReceived(ChannelMessage msg) {
            received.add(msg);
        }
    }

    @Test
    void countsEachMessagesWirePackageOncePerDestinationAndOncePerReceipt() throws Exception {
        ChannelBytes bytes = new ChannelBytes();
        ByteCountingInterceptor counter = new ByteCountingInterceptor(bytes);
        Below below = new Below();
        Above above = new Above();
        counter.setNext(below);
        counter.setPrevious(above);
        ChannelData message = new ChannelData(true);
        message.setMessage(new XByteBuffer(new byte[1000], false));
        message.setAddress(new MemberImpl("127.0.0.1", 4000, 0));
        int wire = message.getDataPackageLength();
        Member[] two = {new MemberImpl("127.0.0.1", 4001, 0), new MemberImpl("127.0.0.1", 4002, 0)};

        counter.sendMessage(two, message, null);
        counter.messageReceived(message);

        assertThat(wire).isGreaterThan(1000); // payload plus Tribes' header, sender and framing
        assertThat(bytes.sent()).isEqualTo(2L * wire);
        assertThat(bytes.received()).isEqualTo(wire);
        assertThat(below.sent).containsExactly(message);
        assertThat(above.received).containsExactly(message);
    }

    @Test
    void metricsShowBothDirectionsInThePrometheusTextFormat() throws Exception {
        ChannelBytes bytes = new ChannelBytes();
        bytes.sent(700);
        bytes.received(300);
        java.io.StringWriter body = new java.io.StringWriter();

        new MetricsServlet(bytes).write(new java.io.PrintWriter(body, true));

        assertThat(body.toString()).contains("# TYPE tomcat_tribes_bytes_total counter\n",
                "tomcat_tribes_bytes_total{direction=\"sent\"} 700\n",
                "tomcat_tribes_bytes_total{direction=\"received\"} 300\n");
    }
}
