package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * When all of a member's {@code max-connections} are busy, requests wait in the balancer's queue for it; one over
 * the queue's bound ({@code max-queued-per-member}) is the balancer's overload: 503 with {@code Retry-After}, no error
 * of the member, and no retry that would move a session or a POST elsewhere.
 */
@Timeout(60)
class MemberQueueTest {

    private static final String STICKY_TO_A = "Cookie: JSESSIONID=node0q.a\r\n";

    /** With the default of 1,024 the request over the configured queue would wait too, and none would be answered. */
    @ParameterizedTest(name = "max-queued-per-member={0}")
    @ValueSource(ints = {1, 2})
    void aRequestOverTheMembersQueueIsTheBalancersOverloadAndStaysWithItsOwner(int maxQueued) throws Exception {
        StubMember a = StubMember.start("a");
        StubMember b = StubMember.start("b");
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.maxConnections = 1;
        settings.maxQueuedPerMember = maxQueued;
        List<Socket> clients = new ArrayList<>();
        try (TestBalancer lb = TestBalancer.start(settings, a, b)) {
            clients.add(RawHttp.send(lb.server.uri(), "GET /hold HTTP/1.1\r\nHost: localhost\r\n" + STICKY_TO_A + "Connection: close\r\n\r\n"));
            a.awaitHeld(); // a's one connection is busy until released
            for (int i = 0; i <= maxQueued; i++) { // maxQueued wait in the queue, one is over it
                clients.add(RawHttp.send(lb.server.uri(), "POST /order HTTP/1.1\r\nHost: localhost\r\n" + STICKY_TO_A
                        + "Content-Length: 0\r\nConnection: close\r\n\r\n"));
            }
            List<Socket> posts = clients.subList(1, clients.size());
            Socket first = RawHttp.firstAnswered(posts);
            String refused = RawHttp.readAll(first);
            a.releaseHeld();
            List<String> queued = new ArrayList<>();
            for (Socket client : posts) {
                if (client != first) {
                    queued.add(RawHttp.readAll(client));
                }
            }

            assertThat(refused).as("the answer to the request over the queue").startsWith("HTTP/1.1 503").contains("Retry-After: 1\r\n");
            assertThat(queued).as("the queued requests, answered by their owner once it was free").hasSize(maxQueued)
                    .allSatisfy(answer -> assertThat(answer).startsWith("HTTP/1.1 200").endsWith("a:"));
            assertThat(RawHttp.readAll(clients.get(0))).startsWith("HTTP/1.1 200");
            assertThat(lb.server.metrics().overloadedCount()).as("overloaded").isEqualTo(1);
            assertThat(lb.backend("a").meters().errors.count()).as("errors of the owner").isZero();
            assertThat(lb.backend("a").meters().retries.count()).as("retries").isZero();
            assertThat(lb.backend("a").isUp()).isTrue();
            assertThat(b.served()).as("requests sent to another member").isZero();
        } finally {
            a.releaseHeld();
            for (Socket client : clients) {
                client.close();
            }
        }
    }
}
