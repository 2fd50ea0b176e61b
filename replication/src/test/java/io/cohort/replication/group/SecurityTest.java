package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cohort.config.Delivery;
import io.cohort.config.Scope;
import io.cohort.config.Secret;
import io.cohort.config.SecurityConfig;
import io.cohort.config.Trigger;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.wire.ReplicationMessage.SessionRemoved;
import io.cohort.replication.wire.ReplicationMessage.SessionUpdate;
import io.cohort.session.RemovalCause;
import io.cohort.session.StoredSession;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A secured group (AUTH with a token derived from the secret; SYM_ENCRYPT unless encrypt="false";
 * every replication frame sealed): a member with the wrong secret neither joins nor injects.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SecurityTest {

    /** An intruder's join requests go unanswered (they cannot be decrypted): give up soon. */
    private static final Map<String, String> FEW_JOIN_ATTEMPTS = Map.of("cohort.max_join_attempts", "3");
    private static final Optional<SecurityConfig> WRONG = Optional.of(new SecurityConfig(new Secret("guessed", "test"), true));

    @Test
    void membersWithTheSecretFormAGroupAndReplicate() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).secured("s3cret!", true)) {
            List<TestMember> members = group.startMembers(2);
            ShopVisit visit = new ShopVisit(members.get(0)).request(Map.of("cart", "EST-1"));
            Await.until("the copy arrives", () -> members.get(1).backupVersion(visit.id()) == visit.version());
            assertThat(members.get(0).service().channel().seals()).as("frames sealed").isTrue();
        }
    }

    @Test
    void aMemberThatJoinsABusyMulticastGroupRefusesNoneOfItsMessages() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.MULTICAST,
                TestGroup.settings(3, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, Delivery.Async.DEFAULT)).secured("s3cret!", true)) {
            List<TestMember> members = group.startMembers(2); // a frame for two or more others goes as one multicast
            TestMember busy = members.get(0);
            List<ShopVisit> visits = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                visits.add(new ShopVisit(busy).request(Map.of("n", 0)));
            }
            // the refusals this guards against depend on races (a change numbered just before the greeting, a
            // multicast overtaking it): five joins under tens of thousands of changes a second
            AtomicBoolean stop = new AtomicBoolean();
            Thread load = new Thread(() -> {
                for (int n = 1; !stop.get() && n < 2_000_000; n++) { // every change goes to all: a multicast each
                    visits.get(n % visits.size()).request(Map.of("n", n));
                }
            });
            load.start();
            try {
                for (int slot = 2; slot <= 6; slot++) {
                    try (TestMember joined = group.start(slot, "m" + slot)) {
                        TestGroup.awaitMembers(List.of(busy, members.get(1), joined));
                        Await.until("the new member holds a copy of every session", () -> visits.stream()
                                .allMatch(v -> joined.backup(v.id()).isPresent()));
                        Thread.sleep(200); // more changes while it is a member

                        assertThat(joined.rejectedMessages()).as("messages %s refused", joined.name()).isZero();
                    }
                }
            } finally {
                stop.set(true);
                load.join();
            }
        }
    }

    @Test
    void memberWithAWrongSecretCannotJoinAnEncryptedGroup() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).secured("s3cret!", true)
                .tuning(FEW_JOIN_ATTEMPTS)) {
            List<TestMember> members = group.startMembers(2);

            TestMember intruder = group.start(2, "x", WRONG);

            assertThat(intruder.memberNames()).containsExactly("x");
            assertThat(members.get(0).memberNames()).containsExactlyInAnyOrder("a", "b");
            assertThat(members.get(1).memberNames()).containsExactlyInAnyOrder("a", "b");
        }
    }

    @Test
    void memberWithAWrongSecretIsRefusedByAnAuthenticatedGroup() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).secured("s3cret!", false)) {
            List<TestMember> members = group.startMembers(2);
            Optional<SecurityConfig> wrong = Optional.of(new SecurityConfig(new Secret("guessed", "test"), false));

            assertThatThrownBy(() -> group.start(2, "x", wrong)).hasStackTraceContaining("authentication failed");
            assertThat(members.get(0).memberNames()).containsExactlyInAnyOrder("a", "b");
        }
    }

    @Test
    void memberWithoutTheSecretCannotInjectIntoAnAuthenticatedGroup() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).secured("s3cret!", false)) {
            List<TestMember> members = group.startMembers(1);
            TestMember victim = members.get(0);
            TestMember intruder = group.startLoner(3, "x", Optional.empty()); // does not ask to join: sends directly
            GroupFaults.introduce(intruder, victim);

            GroupFaults.send(intruder, victim, forgedUpdate("forged"));

            Await.until("the forged frame is rejected", () -> victim.rejectedMessages() == 1);
            assertThat(victim.backup("forged")).isEmpty();
        }
    }

    @Test
    void memberWithAWrongSecretCannotInjectIntoAnEncryptedGroup() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).secured("s3cret!", true)
                .tuning(FEW_JOIN_ATTEMPTS)) {
            List<TestMember> members = group.startMembers(2);
            TestMember victim = members.get(1);
            TestMember intruder = group.start(2, "x", WRONG);

            GroupFaults.send(intruder, victim, forgedUpdate("forged"));
            // a legitimate change sent afterwards: once it is there, the forged one had its chance
            ShopVisit visit = new ShopVisit(members.get(0)).request(Map.of("cart", "EST-1"));
            Await.until("the legitimate copy arrives", () -> victim.backupVersion(visit.id()) == visit.version());

            assertThat(victim.backup("forged")).isEmpty();
        }
    }

    @Test
    void aCapturedMessageReplayedByAnOutsiderIsRejectedWhereverItIsSent() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).secured("s3cret!", false)) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            TestMember c = members.get(2);
            TestMember outsider = group.startLoner(3, "x", Optional.empty());
            GroupFaults.introduce(outsider, b);
            GroupFaults.introduce(outsider, c);
            List<byte[]> captured = GroupFaults.recordFrom(a, b);
            GroupFaults.send(a, b, forgedUpdate("replayed")); // a legitimate copy, as the link carried it
            Await.until("b holds the copy", () -> b.backupVersion("replayed") == 1);
            GroupFaults.send(a, b, new SessionRemoved(TestGroup.APP, 0, "replayed", RemovalCause.INVALIDATED));
            Await.until("b dropped it", () -> b.backup("replayed").isEmpty());
            byte[] update = captured.stream().filter(payload -> containsAscii(payload, "replayed")).findFirst().orElseThrow();

            GroupFaults.replay(outsider, a, b, update);
            GroupFaults.replay(outsider, a, c, update);

            Await.until("both replays rejected", () -> b.rejectedMessages() == 1 && c.rejectedMessages() == 1);
            assertThat(b.backup("replayed")).as("the signed-off session is not brought back").isEmpty();
            assertThat(c.backup("replayed")).isEmpty();
        }
    }

    @Test
    void overTcpAMessageForEveryOtherMemberGoesSealedForEachSoItCannotBeReplayedToAMemberThatWasAway() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).secured("s3cret!", false)) {
            List<TestMember> members = group.startMembers(3);
            ShopVisit visit = new ShopVisit(members.get(0)).request(Map.of("cart", "EST-1"));
            Await.until("a copy is placed", () -> members.get(1).backup(visit.id()).isPresent()
                    || members.get(2).backup(visit.id()).isPresent());
            TestMember holder = members.get(1).backup(visit.id()).isPresent() ? members.get(1) : members.get(2);
            TestMember other = holder == members.get(1) ? members.get(2) : members.get(1);
            List<byte[]> atOther = GroupFaults.recordFrom(holder, other);

            holder.store().removed(visit.id(), RemovalCause.INVALIDATED); // a holder does not know who else holds it

            Await.until("the removal reached the other member", () -> atOther.stream()
                    .anyMatch(payload -> containsAscii(payload, visit.id())));
            byte[] removal = atOther.stream().filter(payload -> containsAscii(payload, visit.id())).findFirst().orElseThrow();
            assertThat(removal[removal.length - io.cohort.replication.wire.FrameSeal.TRAILER]).as("sealed to one member")
                    .isEqualTo((byte) 1);
        }
    }

    @Test
    void aMemberWithoutSecurityOnAnAddressOtherThanLoopbackWarnsAndOnLoopbackDoesNot() throws Exception {
        Optional<String> network = java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces()).stream()
                .filter(nic -> isUp(nic)).flatMap(java.net.NetworkInterface::inetAddresses)
                .filter(a -> a instanceof java.net.Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress())
                .map(java.net.InetAddress::getHostAddress).findFirst();
        org.junit.jupiter.api.Assumptions.assumeTrue(network.isPresent(),
                "this machine has no IPv4 address other than loopback to bind a member to");
        String external = network.get();
        List<String> warnings = serviceWarningsWhile(() -> {
            try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults())) {
                group.startLoner(0, "onLoopback", Optional.empty());
                group.startLoner(1, "onTheNetwork", external, Optional.empty());
            }
        });
        assertThat(warnings).singleElement().asString().startsWith("onTheNetwork replicates sessions on " + external)
                .contains("without <security>");
    }

    @Test
    void aShortClusterSecretIsWarnedAboutAndALongOneIsNot() throws Exception {
        List<String> warnings = serviceWarningsWhile(() -> {
            try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).secured("s3cret!", false)) {
                group.startLoner(0, "short", Optional.of(new SecurityConfig(new Secret("s3cret!", "test"), false)));
                group.startLoner(1, "long", Optional.of(new SecurityConfig(new Secret("k7Qw2ZrT9pLx4VbN8sYd", "test"), false)));
            }
        }).stream().filter(m -> m.contains("cluster secret")).toList();
        assertThat(warnings).singleElement().asString().startsWith("short: the cluster secret from test has 7 characters");
    }

    /** What the service logged at warning level while {@code action} ran. */
    private static List<String> serviceWarningsWhile(GroupAction action) throws Exception {
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> log =
                new ch.qos.logback.core.read.ListAppender<>();
        ch.qos.logback.classic.Logger serviceLog =
                (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(GroupReplicationService.class);
        log.start();
        serviceLog.addAppender(log);
        try {
            action.run();
        } finally {
            serviceLog.detachAppender(log);
        }
        synchronized (log) {
            return log.list.stream().filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
                    .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).toList();
        }
    }

    @FunctionalInterface
    private interface GroupAction {
        void run() throws Exception;
    }

    private static boolean isUp(java.net.NetworkInterface nic) {
        try {
            return nic.isUp();
        } catch (java.net.SocketException e) {
            return false;
        }
    }

    private static boolean containsAscii(byte[] payload, String text) {
        return new String(payload, java.nio.charset.StandardCharsets.ISO_8859_1).contains(text);
    }

    private static SessionUpdate forgedUpdate(String id) {
        StoredSession forged = new StoredSession(id, 1, Instant.now(), Instant.now(), 60_000,
                Map.of("admin", new byte[] {1, 2, 3}));
        return new SessionUpdate(TestGroup.APP, 0, SessionChange.full(forged));
    }
}
