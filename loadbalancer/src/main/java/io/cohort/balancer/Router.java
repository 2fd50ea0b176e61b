package io.cohort.balancer;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a request goes (DESIGN.md section 4): to the live owner of its session; when the owner is
 * down or unknown, to the first live member of the backup cookie; otherwise wherever the policy
 * says. A failover is a request whose owner was down, or failed it (a retry excludes the owner), that reached a
 * backup holder. Thread-safe.
 */
final class Router {

    /** Why a request went to its member; shown in the {@code X-Cohort-Routed} header. */
    enum Reason {
        STICKY("sticky"), BACKUP("backup"), POLICY("policy");

        final String label;

        Reason(String label) {
            this.label = label;
        }
    }

    /**
     * A routing decision.
     *
     * @param backend  the member
     * @param reason   why
     * @param failover whether the session's owner was down (or failed the request) and a backup holder took it
     */
    record Route(Backend backend, Reason reason, boolean failover) {
    }

    private final Map<String, Backend> byName = new HashMap<>();
    private final RoutePolicy policy;

    Router(List<Backend> members, RoutePolicy policy) {
        members.forEach(b -> byName.put(b.name(), b));
        this.policy = policy;
    }

    /** Whether {@code route} names a member (live or not). */
    boolean isMember(String route) {
        return byName.containsKey(route);
    }

    /** Whether {@code route} names a live member. */
    boolean isLiveMember(String route) {
        Backend member = byName.get(route);
        return member != null && member.isUp();
    }

    /**
     * @param excluded a member not to choose (the one a retry moves away from), or null
     * @return the decision, or null when no member is live
     */
    Route route(SessionRoute session, Backend excluded) {
        Backend owner = session.owner() == null ? null : byName.get(session.owner());
        if (owner != null && owner.eligible(excluded)) {
            return new Route(owner, Reason.STICKY, false);
        }
        Backend backup = firstLiveBackup(session.backups(), excluded);
        if (backup != null) {
            return new Route(backup, Reason.BACKUP, owner != null); // a failover only from a member, not a made-up name
        }
        Backend chosen = policy.choose(excluded);
        return chosen == null ? null : new Route(chosen, Reason.POLICY, false);
    }

    private Backend firstLiveBackup(String backups, Backend excluded) {
        if (backups == null) {
            return null;
        }
        int start = 0;
        while (start < backups.length()) {
            int dot = backups.indexOf('.', start);
            int end = dot < 0 ? backups.length() : dot;
            Backend candidate = byName.get(backups.substring(start, end));
            if (candidate != null && candidate.eligible(excluded)) {
                return candidate;
            }
            start = end + 1;
        }
        return null;
    }
}
