package io.cohort.replication.group;

import io.cohort.replication.engine.ChangeKind;
import io.cohort.replication.engine.SessionChange;
import io.cohort.session.StoredSession;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Predicate;

/**
 * The copies this node holds of sessions other members own, for every application (deployed here
 * or not), with the name of the owner each copy came from (or of the custodian that answers for it
 * while its owner is gone, see {@link OrphanedCopies}).
 *
 * <p>Rules: a full copy replaces a copy only if its version is higher; a delta applies only to the
 * copy of the version just before it, and anything else is a gap the caller repairs with a full copy;
 * a removed session leaves a tombstone (for {@link #TOMBSTONE_LIFETIME} unless told otherwise) so a late change cannot
 * resurrect it. A removal that reached this node late ({@link #removeUnlessNewer}) tombstones only the versions up to
 * the removed one: a newer owner that went on with the session meanwhile can still place its copies. Copies never
 * expire on the session's own schedule (an orphan's custodian ends it through the application once it has expired,
 * see {@link OrphanedCopies}); {@link #sweep} drops those whose owner has evidently not touched them for
 * {@link #ORPHAN_GRACE_FACTOR} times their inactive interval, the copies of sessions no node ended.
 * All operations on one session are atomic; thread-safe.
 */
final class BackupStore {

    /** How long a removed session's id is remembered: longer than any change can be in flight. */
    static final Duration TOMBSTONE_LIFETIME = Duration.ofMinutes(1);
    /** A copy is an orphan once {@code lastAccessed + factor × maxInactive} is past. */
    static final int ORPHAN_GRACE_FACTOR = 2;

    /** What became of an incoming change. */
    enum Outcome {
        /** The copy now reflects the change. */
        APPLIED,
        /** The copy was already as new or newer; nothing changed. */
        STALE,
        /** The change does not follow the copy's version (or there is no copy): a full copy is needed. */
        GAP,
        /** The session was removed; the change is ignored. */
        REMOVED
    }

    /**
     * A copy and the member it came from.
     *
     * @param replacedOwner the member whose copy this was until {@code owner} took the session over from it
     *     ({@link #takenOver}), or null: changes that member still had on their way are stale here
     */
    record Copy(StoredSession session, String owner, String replacedOwner) {

        Copy(StoredSession session, String owner) {
            this(session, owner, null);
        }

        /** The same copy holding {@code session}, from {@code from}: the replaced owner is kept while the owner is. */
        Copy with(StoredSession next, String from) {
            return new Copy(next, from, from.equals(owner) ? replacedOwner : null);
        }
    }

    /** A removed id: when, and the highest version refused ({@link Long#MAX_VALUE}: every version). */
    private record Tombstone(Instant at, long upToVersion) {

        Tombstone covering(Tombstone other) {
            return other == null ? this : new Tombstone(at, Math.max(upToVersion, other.upToVersion));
        }
    }

    private final ConcurrentMap<String, ConcurrentMap<String, Copy>> copies = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, ConcurrentMap<String, Tombstone>> tombstones = new ConcurrentHashMap<>();
    private final Duration tombstoneLifetime;

    /** A store whose tombstones last {@link #TOMBSTONE_LIFETIME}. */
    BackupStore() {
        this(TOMBSTONE_LIFETIME);
    }

    /** @param tombstoneLifetime how long a removed session's id is remembered (swept after that) */
    BackupStore(Duration tombstoneLifetime) {
        this.tombstoneLifetime = tombstoneLifetime;
    }

    /** How long a removed session's id is remembered. */
    Duration tombstoneLifetime() {
        return tombstoneLifetime;
    }

    Outcome apply(String application, String owner, SessionChange change) {
        Outcome[] outcome = {Outcome.STALE};
        copies(application).compute(change.id(), (id, copy) -> {
            // checked under the session's lock: remove() writes the tombstone before it takes the copy out under
            // the same lock, so a change applied after the removal sees the tombstone
            if (removed(application, id, change.version())) {
                outcome[0] = Outcome.REMOVED;
                return null;
            }
            if (copy != null && owner.equals(copy.replacedOwner()) && !owner.equals(copy.owner())) {
                // a change the former owner sent before it learnt that another member took the session over: the
                // copy follows the new owner's versions now, which the former owner's would shadow
                return copy;
            }
            long held = copy == null ? -1 : copy.session().version();
            if (change.kind() == ChangeKind.FULL) {
                if (change.version() > held) {
                    outcome[0] = Outcome.APPLIED;
                    return copy == null ? new Copy(change.applyTo(null), owner) : copy.with(change.applyTo(null), owner);
                }
                return copy;
            }
            if (copy != null && change.version() == held + 1) {
                outcome[0] = Outcome.APPLIED;
                return copy.with(change.applyTo(copy.session()), owner);
            }
            if (copy == null || change.version() > held + 1) {
                outcome[0] = Outcome.GAP;
            }
            return copy;
        });
        return outcome[0];
    }

    Optional<StoredSession> get(String application, String id) {
        return Optional.ofNullable(copies(application).get(id)).map(Copy::session);
    }

    /** The copy with the name of the member it answers to, without taking it out. */
    Optional<Copy> copy(String application, String id) {
        ConcurrentMap<String, Copy> app = copies.get(application);
        return app == null ? Optional.empty() : Optional.ofNullable(app.get(id));
    }

    /** Calls {@code action} for every copy of the application held now (a live view: no snapshot is taken). */
    void forEachCopy(String application, java.util.function.BiConsumer<String, Copy> action) {
        ConcurrentMap<String, Copy> app = copies.get(application);
        if (app != null) {
            app.forEach(action);
        }
    }

    boolean contains(String application, String id) {
        return copies(application).containsKey(id);
    }

    /** Takes the copy, and the name of the member it came from, out of the store: this node becomes the session's owner. */
    Optional<Copy> promote(String application, String id) {
        return Optional.ofNullable(copies(application).remove(id));
    }

    /** The session is gone for good: drop the copy and remember the id. */
    boolean remove(String application, String id) {
        tombstone(application, id, Long.MAX_VALUE);
        return copies(application).remove(id) != null;
    }

    /**
     * A removal at {@code version} that reaches this node late (it was out of the remover's view): the copy goes and
     * the id is tombstoned up to {@code version} (a copy of a newer version, from an owner that went on with the
     * session meanwhile, is still taken), unless the copy is newer than {@code version} (such an owner placed it),
     * which stays, without a tombstone.
     *
     * @return the copy dropped, if there was one
     */
    Optional<Copy> removeUnlessNewer(String application, String id, long version) {
        Copy[] dropped = {null};
        copies(application).compute(id, (key, copy) -> {
            if (copy != null && copy.session().version() > version) {
                return copy;
            }
            tombstone(application, id, version);
            dropped[0] = copy;
            return null;
        });
        return Optional.ofNullable(dropped[0]);
    }

    /**
     * {@code sender} placed the copy elsewhere: drop it unless it is newer than {@code version}, or it is not
     * {@code sender}'s to place (its owner is another member that {@code isMember} still names).
     */
    void release(String application, String id, long version, String sender, Predicate<String> isMember) {
        copies(application).computeIfPresent(id, (key, copy) -> {
            // only the copy's owner places it, or, once the owner has left, its custodian: a former owner's release
            // that comes after another member took the session over (and kept this copy) is not the placement's
            boolean placedBySender = copy.owner().equals(sender) || !isMember.test(copy.owner());
            return placedBySender && copy.session().version() <= version ? null : copy;
        });
    }

    void touch(String application, String id, long version, Instant lastAccessed) {
        copies(application).computeIfPresent(id, (key, copy) -> {
            StoredSession s = copy.session();
            if (s.version() != version || !lastAccessed.isAfter(s.lastAccessed())) {
                return copy;
            }
            return copy.with(new StoredSession(s.id(), s.version(), s.created(), lastAccessed, s.maxInactiveMillis(),
                    s.attributes()), copy.owner());
        });
    }

    /**
     * {@code newOwner} took the session over at {@code version} and places copies on {@code holders}:
     * keep a copy only if this node is one of them and the copy is that version, or the copy already
     * came from the new owner.
     */
    void takenOver(String application, String id, String newOwner, long version, List<String> holders, String self) {
        copies(application).computeIfPresent(id, (key, copy) -> {
            if (copy.owner().equals(newOwner)) {
                return copy;
            }
            if (holders.contains(self) && copy.session().version() == version) {
                return new Copy(copy.session(), newOwner, copy.owner());
            }
            return null;
        });
    }

    /** The copies of one application held here, by session id (a snapshot). */
    Map<String, Copy> copiesOf(String application) {
        return Map.copyOf(copies(application));
    }

    /**
     * {@code owner} answers for the copy from now on (it became the custodian of an orphaned
     * session); only if the copy is still {@code expected} (nothing changed it meanwhile).
     *
     * @return whether the copy was re-owned
     */
    boolean reown(String application, String id, Copy expected, String owner) {
        boolean[] done = {false};
        copies(application).computeIfPresent(id, (key, copy) -> {
            if (copy != expected) {
                return copy;
            }
            done[0] = true;
            return new Copy(copy.session(), owner);
        });
        return done[0];
    }

    int count(String application) {
        ConcurrentMap<String, Copy> app = copies.get(application);
        return app == null ? 0 : app.size();
    }

    /** Drops orphaned copies and old tombstones; returns how many copies were dropped. */
    int sweep(Instant now) {
        int dropped = 0;
        for (ConcurrentMap<String, Copy> app : copies.values()) {
            for (Map.Entry<String, Copy> entry : app.entrySet()) {
                StoredSession s = entry.getValue().session();
                long grace = s.maxInactiveMillis() * ORPHAN_GRACE_FACTOR;
                if (s.maxInactiveMillis() > 0 && s.lastAccessed().plusMillis(grace).isBefore(now)
                        && app.remove(entry.getKey(), entry.getValue())) {
                    dropped++;
                }
            }
        }
        Instant oldest = now.minus(tombstoneLifetime);
        tombstones.values().forEach(app -> app.values().removeIf(tombstone -> tombstone.at().isBefore(oldest)));
        return dropped;
    }

    /** Whether the session was removed recently, whatever its version (its id is tombstoned for every version). */
    boolean removed(String application, String id) {
        return removed(application, id, Long.MAX_VALUE);
    }

    /** Whether the session's {@code version} was removed recently (its id is tombstoned up to that version or beyond). */
    boolean removed(String application, String id, long version) {
        ConcurrentMap<String, Tombstone> app = tombstones.get(application);
        Tombstone tombstone = app == null ? null : app.get(id);
        return tombstone != null && version <= tombstone.upToVersion();
    }

    private void tombstone(String application, String id, long upToVersion) {
        tombstones.computeIfAbsent(application, a -> new ConcurrentHashMap<>())
                .compute(id, (key, old) -> new Tombstone(Instant.now(), upToVersion).covering(old));
    }

    private ConcurrentMap<String, Copy> copies(String application) {
        return copies.computeIfAbsent(application, a -> new ConcurrentHashMap<>());
    }
}
