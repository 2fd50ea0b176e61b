package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.ClusterConfig;
import io.cohort.config.Discovery;
import io.cohort.config.MulticastProtocol;
import io.cohort.config.PeerMember;
import io.cohort.config.PeerProtocol;
import io.cohort.config.ProtocolConfig;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jgroups.JChannel;
import org.jgroups.protocols.FD_SOCK2;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The socket failure detector (FD_SOCK2) of the built-in stacks between members on the same port of
 * different addresses, as on separate hosts: each member's detector listens on the member's own
 * address and connects to its neighbour's. (Listening on every interface, each detector announced
 * the host name's address; on separate hosts with the same port all announced the same one, e.g.
 * {@code 127.0.1.1:7900}, and each refused its neighbour's connection as coming from itself. Here,
 * on one machine, the second detector finds the port taken and takes the next one, so only the
 * address check catches that; the distribution's {@code MultiHostInNamespacesTest} shows it on
 * separate network namespaces.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SocketFailureDetectionTest {

    private static final List<String> ADDRESSES = List.of("127.0.0.1", "127.0.0.2");

    private final List<JChannel> channels = new ArrayList<>();

    @AfterEach
    void closeChannels() {
        channels.forEach(JChannel::close);
    }

    @Test
    void peerMembersOnTheSamePortOfTwoAddressesWatchEachOtherBySocket() throws Exception {
        int port = TestPorts.freePort();
        List<PeerMember> members = ADDRESSES.stream().map(a -> new PeerMember(a, port)).toList();
        assertNeighboursConnected(address -> new PeerProtocol(address, port, 1, Duration.ofMillis(300), Discovery.STATIC,
                Optional.empty(), Optional.empty(), Optional.empty(), members, PeerProtocol.DEFAULT_BATCH_SIZE,
                PeerProtocol.DEFAULT_FLUSH_INTERVAL));
    }

    @Test
    void multicastMembersOnTwoAddressesWatchEachOtherBySocket() throws Exception {
        String group = TestPorts.multicastAddress();
        int groupPort = TestPorts.freePort();
        assertNeighboursConnected(address -> new MulticastProtocol(group, groupPort, address, 0, Optional.empty(),
                PeerProtocol.DEFAULT_BATCH_SIZE, PeerProtocol.DEFAULT_FLUSH_INTERVAL));
    }

    @Test
    void aMemberWhoseDetectorCannotReachItsNeighbourSaysSoInItsMetersAndLog(@TempDir Path dir) throws Exception {
        // member b's detector listens at its port + 200: a's looks for it at + 100, and b looks for a's at + 200
        Path shiftedStack = dir.resolve("peer-shifted-fd.xml");
        try (var in = GroupStack.class.getResourceAsStream(GroupStack.PEER_STACK)) {
            String stack = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            String shifted = stack.replace("<FD_SOCK2 bind_addr=\"${cohort.bind_addr:127.0.0.1}\"/>",
                    "<FD_SOCK2 bind_addr=\"${cohort.bind_addr:127.0.0.1}\" offset=\"200\"/>");
            assertThat(shifted).isNotEqualTo(stack);
            Files.writeString(shiftedStack, shifted);
        }
        List<Integer> ports = List.of(TestPorts.freePort(), TestPorts.freePort());
        List<PeerMember> members = ports.stream().map(p -> new PeerMember("127.0.0.1", p)).toList();
        String cluster = "fd-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, String> tuning = new HashMap<>(TestGroup.FAST_STACK);
        tuning.put("cohort.verify_suspect.timeout", "1500ms"); // the members answer; keep them in the view
        GroupOptions options = GroupOptions.DEFAULT.withStackTuning(tuning).withSweepInterval(Duration.ofMillis(200));
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger watchLogger = (Logger) LoggerFactory.getLogger(FailureDetectorWatch.class);
        log.start();
        watchLogger.addAppender(log);
        try {
            List<TestMember> started = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                PeerProtocol protocol = new PeerProtocol("127.0.0.1", ports.get(i), 1, Duration.ofMillis(300),
                        Discovery.STATIC, Optional.empty(), Optional.empty(),
                        i == 1 ? Optional.of(shiftedStack) : Optional.empty(), members, PeerProtocol.DEFAULT_BATCH_SIZE,
                        PeerProtocol.DEFAULT_FLUSH_INTERVAL);
                ClusterConfig config = new ClusterConfig(cluster, true, TestGroup.defaults(), protocol, Optional.empty());
                started.add(TestMember.start(String.valueOf((char) ('a' + i)), "localhost", config, options));
            }
            try {
                TestGroup.awaitMembers(started);
                Await.until("a warning from each member's watch", Duration.ofSeconds(15), () -> eventsOf(log).stream()
                        .filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage)
                        .filter(m -> m.contains("cannot connect to the member it watches, "))
                        .map(m -> m.substring(0, 1) + m.charAt(m.indexOf("watches, ") + 9)).distinct().count() == 2);
                for (TestMember member : started) {
                    assertThat(member.meters().get(ClusterMeters.FAILURE_DETECTOR_CONNECTED).gauge().value())
                            .as(member.name() + "'s detector").isZero();
                }
            } finally {
                started.forEach(TestMember::close);
            }
        } finally {
            watchLogger.detachAppender(log);
        }
    }

    private void assertNeighboursConnected(Function<String, ProtocolConfig> protocolOn) throws Exception {
        String cluster = "fd-" + UUID.randomUUID().toString().substring(0, 8);
        List<FD_SOCK2> detectors = new ArrayList<>();
        for (int i = 0; i < ADDRESSES.size(); i++) {
            String address = ADDRESSES.get(i);
            ClusterConfig config = new ClusterConfig(cluster, true, TestGroup.defaults(), protocolOn.apply(address),
                    Optional.empty());
            JChannel channel = GroupStack.create(config, "m" + (i + 1), TestGroup.FAST_STACK, Optional.empty());
            channels.add(channel);
            FD_SOCK2 detector = channel.getProtocolStack().findProtocol(FD_SOCK2.class);
            assertThat(detector.getBindAddress().getHostAddress()).as("the detector's address").isEqualTo(address);
            detectors.add(detector);
            channel.connect(cluster);
        }
        Await.until("both members in one view", () -> channels.stream().allMatch(c -> c.getView().size() == 2));
        Await.until("each member's socket detector connected to its neighbour",
                () -> detectors.stream().allMatch(d -> d.getClientState().equals("CONNECTED")));
        for (FD_SOCK2 detector : detectors) {
            assertThat(detector.getNumSuspectedMembers()).as(detector.getPingDest() + " suspected").isZero();
        }
        assertThat(channels).allSatisfy(c -> assertThat(c.getView().size()).isEqualTo(2));
    }

    /** What the appender holds now; it appends under its own lock as JGroups' threads log. */
    private static java.util.List<ILoggingEvent> eventsOf(ListAppender<ILoggingEvent> appender) {
        synchronized (appender) {
            return new java.util.ArrayList<>(appender.list);
        }
    }
}
