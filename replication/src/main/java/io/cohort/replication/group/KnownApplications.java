package io.cohort.replication.group;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The application names a member keeps state for when other members name them: its own, and at most {@code limit}
 * others (a cluster runs a handful of applications; a member may hold copies for one it does not deploy). Each name
 * costs meters and maps that live as long as the member, so a faulty or hostile member of the group (it holds the
 * cluster secret, or the cluster has none) must not be able to make new ones without end. Thread-safe; the bound may
 * be passed by the few names admitted in a race.
 */
final class KnownApplications {

    /** Names kept beyond the member's own: far above what a cluster runs. */
    static final int DEFAULT_LIMIT = 256;

    private final Predicate<String> local;
    private final int limit;
    private final Set<String> others = ConcurrentHashMap.newKeySet();

    /**
     * @param local whether the member runs the application of this name
     * @param limit how many other names it keeps
     */
    KnownApplications(Predicate<String> local, int limit) {
        this.local = local;
        this.limit = limit;
    }

    /** Whether state may be kept for this application: it is known, or there is room for one more name. */
    boolean admit(String application) {
        if (local.test(application) || others.contains(application)) {
            return true;
        }
        if (others.size() >= limit) {
            return false;
        }
        others.add(application);
        return true;
    }
}
