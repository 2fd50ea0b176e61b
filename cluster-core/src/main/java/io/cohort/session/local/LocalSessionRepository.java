package io.cohort.session.local;

import io.cohort.session.StoredSession;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Node-wide memory for sessions of applications that stopped gracefully, so that a redeployed
 * application (a replaced WAR) finds its users' sessions again. Entries are keyed by application
 * name and session id, handed out once, and dropped when they expire. Thread-safe.
 */
public final class LocalSessionRepository {

    private final Map<String, Map<String, StoredSession>> byApplication = new ConcurrentHashMap<>();
    private final Clock clock;

    public LocalSessionRepository(Clock clock) {
        this.clock = clock;
    }

    void put(String application, StoredSession session) {
        sessionsOf(application).merge(session.id(), session,
                (held, offered) -> offered.version() >= held.version() ? offered : held);
    }

    /** Removes and returns the session, unless it has expired in the meantime. */
    Optional<StoredSession> take(String application, String id) {
        StoredSession session = sessionsOf(application).remove(id);
        if (session == null || session.isExpiredAt(clock.instant())) {
            return Optional.empty();
        }
        return Optional.of(session);
    }

    boolean contains(String application, String id) {
        StoredSession session = sessionsOf(application).get(id);
        return session != null && !session.isExpiredAt(clock.instant());
    }

    void remove(String application, String id) {
        sessionsOf(application).remove(id);
    }

    /** Drops every expired entry; returns how many were dropped. */
    int purgeExpired() {
        int before = size();
        var now = clock.instant();
        byApplication.values().forEach(sessions -> sessions.values().removeIf(s -> s.isExpiredAt(now)));
        return before - size();
    }

    /** Number of sessions held for all applications. */
    public int size() {
        return byApplication.values().stream().mapToInt(Map::size).sum();
    }

    private Map<String, StoredSession> sessionsOf(String application) {
        return byApplication.computeIfAbsent(application, a -> new ConcurrentHashMap<>());
    }
}
