package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.Delivery;
import io.cohort.config.Scope;
import io.cohort.config.Trigger;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.session.contract.TestSession;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Requests that mutate a session's collections in place while it is being replicated (allAttributes
 * serializes every value each time) never cause a ConcurrentModificationException, because values
 * are snapshotted under the session's lock.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ConcurrencyStressTest {

    @Test
    void concurrentRequestsOnOneSessionNeverBreakReplication() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_SET_ATTRIBUTE, Scope.ALL_ATTRIBUTES, Delivery.Async.DEFAULT))) {
            List<TestMember> members = group.startMembers(2);
            TestMember owner = members.get(0);
            TestMember holder = members.get(1);
            ShopVisit visit = new ShopVisit(owner);
            TestSession session = visit.session();
            List<String> cart = new ArrayList<>();
            AtomicInteger added = new AtomicInteger();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);

            ExecutorService requests = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    done.add(requests.submit(() -> {
                        while (System.nanoTime() < end) {
                            synchronized (session) {
                                cart.add("EST-" + added.incrementAndGet()); // mutated in place, as shops do
                                session.set("cart", cart);
                                owner.store().attributeChanged(session, "cart");
                            }
                            owner.requestCompleted(session);
                        }
                    }));
                }
                for (Future<?> f : done) {
                    f.get(20, TimeUnit.SECONDS); // rethrows a ConcurrentModificationException, if any
                }
            } finally {
                requests.shutdownNow();
            }

            long last = visit.version();
            Await.until("the holder caught up with version " + last, () -> holder.backupVersion(visit.id()) == last);
            @SuppressWarnings("unchecked")
            List<String> copied = (List<String>) TestMember.CODEC.deserialize("cart",
                    holder.backup(visit.id()).orElseThrow().attributes().get("cart"));
            assertThat(copied).hasSize(added.get());
            assertThat(owner.counter(ReplicationMetrics.FAILURES, "app", TestGroup.APP)).isZero();
        }
    }
}
