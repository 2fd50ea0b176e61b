package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.replication.engine.CallerSends;
import io.cohort.replication.engine.Dispatch;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.wire.FrameBundle;
import io.cohort.replication.wire.ReplicationMessage.SessionUpdate;
import io.cohort.session.StoredSession;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What an asynchronous lane took from its queue leaves as one group message per target, and arrives
 * frame by frame, in order; a malformed bundle is rejected whole, a bad frame inside a good bundle alone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FrameBundlingTest {

    @Test
    void queuedChangesForOneHolderLeaveAsOneMessageAndAllApplyInOrder() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).secured("s3cret!", true)) {
            List<TestMember> members = group.startMembers(2);
            TestMember sender = members.get(0);
            TestMember holder = members.get(1);
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            ReplicationMetrics metrics = new ReplicationMetrics(registry, TestGroup.APP);
            List<Dispatch> queued = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                // two versions of each session, the newer one queued later: the holder must end at version 2
                queued.add(dispatch(sender, holder, metrics, "bundled-" + i, 1));
                queued.add(dispatch(sender, holder, metrics, "bundled-" + i, 2));
            }

            new FrameBundler(sender.service().messenger(), metrics, 64, Duration.ZERO, CallerSends.WHEN_IDLE).send(queued);

            awaitCopies(holder, "bundled-", 20, 2);
            assertThat(counter(registry, ReplicationMetrics.MESSAGES)).isEqualTo(1.0);
            assertThat(counter(registry, ReplicationMetrics.CHANGES)).isEqualTo(40.0);
            assertThat(holder.rejectedMessages()).isZero();
        }
    }

    @Test
    void bundlesLargerThanTheLimitAreSplitAndStillArrive() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults())) {
            List<TestMember> members = group.startMembers(2);
            TestMember sender = members.get(0);
            TestMember holder = members.get(1);
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            ReplicationMetrics metrics = new ReplicationMetrics(registry, TestGroup.APP);
            List<Dispatch> queued = new ArrayList<>();
            byte[] value = new byte[FrameBundler.MAX_BUNDLE_BYTES / 3]; // three frames do not fit one bundle
            for (int i = 0; i < 6; i++) {
                queued.add(dispatch(sender, holder, metrics, "large-" + i, 1, value));
            }

            new FrameBundler(sender.service().messenger(), metrics, 64, Duration.ZERO, CallerSends.WHEN_IDLE).send(queued);

            awaitCopies(holder, "large-", 6, 1);
            assertThat(counter(registry, ReplicationMetrics.MESSAGES)).isEqualTo(3.0); // two frames a bundle
        }
    }

    @Test
    void aMalformedBundleIsRejectedWholeAndABadFrameInAGoodBundleAlone() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults())) {
            List<TestMember> members = group.startMembers(2);
            TestMember sender = members.get(0);
            TestMember receiver = members.get(1);
            byte[] good1 = sender.service().codec().encode(update("good-1", 1, new byte[] {1}));
            byte[] good2 = sender.service().codec().encode(update("good-2", 1, new byte[] {2}));
            byte[] unknownType = {(byte) 0xC7, 1, 99};
            byte[] truncated = FrameBundle.encode(List.of(good1, good2));
            truncated = Arrays.copyOf(truncated, truncated.length - 5);

            GroupFaults.sendRaw(sender, receiver, truncated);
            GroupFaults.sendRaw(sender, receiver, FrameBundle.encode(List.of(good1, unknownType, good2)));

            Await.until("both good frames applied", () -> receiver.backupVersion("good-1") == 1
                    && receiver.backupVersion("good-2") == 1);
            assertThat(receiver.rejectedMessages()).isEqualTo(2); // the truncated bundle, and the bad frame
        }
    }

    /** Waits until the holder has sessions {@code prefix0} .. {@code prefix(count-1)} at {@code version}. */
    private static void awaitCopies(TestMember holder, String prefix, int count, long version) {
        Await.until(count + " copies at version " + version, () -> {
            for (int i = 0; i < count; i++) {
                if (holder.backupVersion(prefix + i) != version) {
                    return false;
                }
            }
            return true;
        });
    }

    private static GroupDispatch dispatch(TestMember sender, TestMember holder, ReplicationMetrics metrics, String id,
            long version) {
        return dispatch(sender, holder, metrics, id, version, new byte[] {(byte) version});
    }

    private static GroupDispatch dispatch(TestMember sender, TestMember holder, ReplicationMetrics metrics, String id,
            long version, byte[] value) {
        byte[] frame = sender.service().codec().encode(update(id, version, value));
        return new GroupDispatch(List.of(new GroupDispatch.Frame(holder.name(), frame)), sender.service().messenger(),
                metrics, 1, CompletableFuture.completedFuture(null), missed -> { }, () -> true);
    }

    private static SessionUpdate update(String id, long version, byte[] value) {
        Instant now = Instant.now();
        return new SessionUpdate(TestGroup.APP, 0,
                SessionChange.full(new StoredSession(id, version, now, now, 60_000, Map.of("value", value))));
    }

    private static double counter(SimpleMeterRegistry registry, String name) {
        return registry.find(name).tags("direction", "sent").counter().count();
    }
}
