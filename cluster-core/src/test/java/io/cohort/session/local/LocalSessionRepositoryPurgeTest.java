package io.cohort.session.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.cluster.Member;
import io.cohort.session.StoredSession;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Sessions kept for an application that never comes back leave memory once they expire, without any access. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class LocalSessionRepositoryPurgeTest {

    private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");

    @Test
    void expiredSessionsOfAnApplicationThatIsNotRedeployedArePurgedOnSchedule() throws Exception {
        Member self = new Member("n1", "n1", "localhost", URI.create("http://127.0.0.1:1"), URI.create("http://127.0.0.1:2"));
        LocalSessionStoreFactory stores = new LocalSessionStoreFactory(self, Clock.fixed(NOW, ZoneOffset.UTC),
                Duration.ofMillis(50));
        try {
            LocalSessionRepository repository = stores.repository();
            // what an undeployed application left behind: one session expired, one still alive
            repository.put("gone", session("expired", NOW.minus(Duration.ofMinutes(31))));
            repository.put("gone", session("alive", NOW.minus(Duration.ofMinutes(5))));

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (repository.size() > 1 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }

            assertThat(repository.size()).isOne();
            assertThat(repository.contains("gone", "alive")).isTrue();
        } finally {
            stores.close();
        }
    }

    private static StoredSession session(String id, Instant lastAccessed) {
        return new StoredSession(id, 1, lastAccessed.minusSeconds(60), lastAccessed, Duration.ofMinutes(30).toMillis(), Map.of());
    }
}
