package io.cohort.replication.placement;

import io.cohort.cluster.Member;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Decides which members hold the copies of a session: rendezvous (highest random weight) hashing of
 * the session id against each member's name. Every member computes the same answer from the same
 * session id and the same members, whatever their order, and a membership change moves only the
 * copies whose best-scoring member changed (a member that joins takes over about 1/n of the copies;
 * a member that leaves hands its copies to the next best).
 *
 * <p>With {@code allowColocation == false} members on hosts that hold no copy yet (and are not the
 * owner's host) are preferred, in score order; members on used hosts fill the remaining places only
 * when there are not enough hosts. Immutable and thread-safe.
 *
 * @param writeQuota      how many copies each session should have (beyond the owner's)
 * @param allowColocation whether a copy may sit on the owner's host without necessity
 */
public record ReplicaPlacement(int writeQuota, boolean allowColocation) {

    public ReplicaPlacement {
        if (writeQuota < 1) {
            throw new IllegalArgumentException("write quota must be at least 1: " + writeQuota);
        }
    }

    /**
     * The holders of {@code sessionId}'s copies, best first: {@code min(writeQuota, members - 1)}
     * members other than {@code owner}.
     */
    public List<Member> holders(String sessionId, Member owner, List<Member> members) {
        List<Member> candidates = ranked(sessionId, members, owner.name());
        int wanted = Math.min(writeQuota, candidates.size());
        if (allowColocation) {
            return List.copyOf(candidates.subList(0, wanted));
        }
        List<Member> chosen = new ArrayList<>(wanted);
        Set<String> usedHosts = new HashSet<>(Set.of(owner.host()));
        for (Member candidate : candidates) {
            if (chosen.size() < wanted && usedHosts.add(candidate.host())) {
                chosen.add(candidate);
            }
        }
        for (Member candidate : candidates) {
            if (chosen.size() < wanted && !chosen.contains(candidate)) {
                chosen.add(candidate);
            }
        }
        return List.copyOf(chosen);
    }

    /**
     * The members that may hold a copy of a session whose owner is unknown (e.g. it died), best first. When copies
     * may be colocated, the {@code writeQuota + 1} best-scoring members: they include the holders for any owner among
     * them. Otherwise every member: a placement that prefers other hosts skips members on hosts already used, past
     * any fixed number of ranks. A takeover from a local copy confirms it with them.
     */
    public List<Member> likelyHolders(String sessionId, List<Member> members) {
        List<Member> ranked = ranked(sessionId, members, null);
        return List.copyOf(allowColocation ? ranked.subList(0, Math.min(writeQuota + 1, ranked.size())) : ranked);
    }

    /** How many copies are missing because the cluster is too small: {@code max(0, quota - (members - 1))}. */
    public int deficit(int memberCount) {
        return Math.max(0, writeQuota - Math.max(0, memberCount - 1));
    }

    /**
     * The members but {@code excluded} (a name, or null), best first: highest score, ties by name.
     * Runs on every request of a replicated session, so each score is computed once and the few
     * members are placed by insertion, without streams or a comparator.
     */
    private static List<Member> ranked(String sessionId, List<Member> members, String excluded) {
        Member[] order = new Member[members.size()];
        long[] scores = new long[order.length];
        int count = 0;
        for (Member member : members) {
            if (member.name().equals(excluded)) {
                continue;
            }
            long score = score(sessionId, member.name());
            int at = count++;
            while (at > 0 && ranksAfter(scores[at - 1], order[at - 1], score, member)) {
                scores[at] = scores[at - 1];
                order[at] = order[at - 1];
                at--;
            }
            scores[at] = score;
            order[at] = member;
        }
        return Arrays.asList(order).subList(0, count);
    }

    private static boolean ranksAfter(long score, Member member, long otherScore, Member other) {
        return score < otherScore || (score == otherScore && member.name().compareTo(other.name()) > 0);
    }

    /** A well-mixed 64-bit hash of the pair (FNV-1a over both strings, then the SplitMix64 finalizer). */
    static long score(String sessionId, String memberName) {
        long hash = 0xcbf29ce484222325L;
        hash = fnv(hash, sessionId);
        hash = (hash ^ 0xFF) * 0x100000001b3L;
        hash = fnv(hash, memberName);
        hash = (hash ^ (hash >>> 30)) * 0xbf58476d1ce4e5b9L;
        hash = (hash ^ (hash >>> 27)) * 0x94d049bb133111ebL;
        return hash ^ (hash >>> 31);
    }

    private static long fnv(long hash, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            hash = (hash ^ (c & 0xFF)) * 0x100000001b3L;
            hash = (hash ^ (c >>> 8)) * 0x100000001b3L;
        }
        return hash;
    }
}
