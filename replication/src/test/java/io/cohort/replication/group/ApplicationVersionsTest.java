package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.Delivery;
import io.cohort.config.Scope;
import io.cohort.config.Trigger;
import io.cohort.session.SessionStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Versions of one application on a member (a redeploy): which one the group's messages reach. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ApplicationVersionsTest {

    private static final Delivery SYNC = new Delivery.Sync(Duration.ofSeconds(5));

    @Test
    void aNewVersionThatFailsToStartGivesTheReplicationBackToTheVersionThatServesOn() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            List<TestMember> members = group.startMembers(2);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            GroupSessionTransport serving = a.service().transportOf(TestGroup.APP);

            SessionStore failed = a.startAnotherVersion(); // its application then fails to start, and it is stopped
            assertThat(a.service().transportOf(TestGroup.APP)).isNotSameAs(serving);
            failed.stop();

            assertThat(a.service().transportOf(TestGroup.APP)).as("the serving version's again").isSameAs(serving);
            ShopVisit visit = new ShopVisit(a).request(Map.of("cart", "EST-1"));
            assertThat(b.store().load(visit.id())).as("b takes the session over").isPresent();
            Await.until("the serving version heard of it and dropped its stale copy",
                    () -> a.cache().evicted().contains(visit.id()));
        }
    }

    @Test
    void theOldVersionRetiringAfterASuccessfulRedeployLeavesTheReplicationWithTheNewOne() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            TestMember a = group.startMembers(2).get(0);

            a.startAnotherVersion();
            GroupSessionTransport newVersion = a.service().transportOf(TestGroup.APP);
            a.store().stop(); // the old version retires

            assertThat(a.service().transportOf(TestGroup.APP)).isSameAs(newVersion);
        }
    }
}
