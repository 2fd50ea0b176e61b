package io.cohort.metrics;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which occurrences of a repeated event to log: the first of each kind, for at most {@code limit} kinds; the rest are
 * only counted by the caller. The limit matters when a kind comes from outside (an attribute or class name another
 * member sent): a sender varying it could otherwise grow the set, and the log, without end. Thread-safe; under
 * concurrent first occurrences the number of kinds may pass the limit by the number of threads at most.
 */
public final class OncePerKind {

    private final int limit;
    private final Set<String> logged = ConcurrentHashMap.newKeySet();

    /** @param limit the most kinds logged, at least 1 */
    public OncePerKind(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1: " + limit);
        }
        this.limit = limit;
    }

    /** Whether to log this occurrence: the first of its kind, while fewer than the limit of kinds were logged. */
    public boolean first(String kind) {
        return logged.size() < limit && logged.add(kind);
    }
}
