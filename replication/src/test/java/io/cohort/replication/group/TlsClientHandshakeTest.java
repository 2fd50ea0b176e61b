package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The client side of a member's TLS connections: a member that connects to a host which accepts TCP but never answers
 * the handshake gives up on it within the transport's handshake time, as the server side does with a silent client.
 * The thread that connects is the member's sender thread for that host (pd bundler, one per destination): without
 * the bound it waited for good, and when there was one sender thread for all, replication stopped with it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsClientHandshakeTest {

    private static final String SECRET = "k7Qw2ZrT9pLx4VbN8sYd";
    /** A listed member slot where no member runs: the silent host takes its port. */
    private static final int SILENT_SLOT = 6;
    /**
     * The handshake time (peer_addr_read_timeout, JGroups' 1 s) plus the connect timeout (300 ms), with room for a slow
     * machine; without the bound, the member waits for the silent host's answer as long as it runs.
     */
    private static final Duration GIVE_UP_LIMIT = Duration.ofSeconds(15);

    @Test
    void aMemberGivesUpOnAListedHostThatNeverAnswersTheHandshakeAndKeepsReplicating() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).securedWithTls(SECRET)) {
            // the group forms first (each join attempt would otherwise cost a member's sender the handshake time)
            List<TestMember> members = group.startMembers(2);
            try (SilentHost silent = SilentHost.listeningOn(group.port(SILENT_SLOT))) {
                // the members look for partitions to merge at the listed hosts every second or so (MERGE3, TCPPING)
                Await.until("a member connects to the silent host", () -> silent.accepted() >= 1);

                ShopVisit visit = new ShopVisit(members.get(0)).request(Map.of("cart", "EST-1"));
                Await.until("the copy arrives", () -> members.get(1).backupVersion(visit.id()) == visit.version());
                ShopVisit back = new ShopVisit(members.get(1)).request(Map.of("cart", "EST-2"));
                Await.until("the copy arrives the other way",
                        () -> members.get(0).backupVersion(back.id()) == back.version());

                Await.until("a member closes its unanswered connection to the silent host", GIVE_UP_LIMIT,
                        () -> silent.closedByPeer() >= 1);
                assertThat(members.get(0).memberNames()).as("still one group").containsExactlyInAnyOrder("a", "b");
            }
        }
    }

    /**
     * Each member has a sender thread per destination: while one waits for the silent host's handshake, the join
     * request, the view and the copies go to the other member on theirs. With one sender thread for all, each discovery
     * round cost the whole handshake time and the group took 20 s or more to form.
     */
    @Test
    void aSilentHostListedFromTheStartDelaysNeitherTheGroupNorItsCopies() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).securedWithTls(SECRET);
                SilentHost silent = SilentHost.listeningOn(group.port(SILENT_SLOT))) {
            List<TestMember> members = group.startMembers(2);
            Await.until("a member connects to the silent host", () -> silent.accepted() >= 1);

            ShopVisit visit = new ShopVisit(members.get(0)).request(Map.of("cart", "EST-1"));
            Await.until("the copy arrives", () -> members.get(1).backupVersion(visit.id()) == visit.version());
            assertThat(members.get(0).memberNames()).as("one group").containsExactlyInAnyOrder("a", "b");
        }
    }
}
