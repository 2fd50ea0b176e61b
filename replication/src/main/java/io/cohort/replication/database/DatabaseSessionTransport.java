package io.cohort.replication.database;

import io.cohort.config.DatabaseProtocol;
import io.cohort.config.Delivery;
import io.cohort.config.ReplicationSettings;
import io.cohort.config.Trigger;
import io.cohort.replication.database.DatabaseWrite.Outcome;
import io.cohort.replication.database.DatabaseWrite.Removal;
import io.cohort.replication.database.DatabaseWrite.Store;
import io.cohort.replication.database.DatabaseWrite.Touch;
import io.cohort.replication.engine.Batching;
import io.cohort.replication.engine.CallerSends;
import io.cohort.replication.engine.ChangeKind;
import io.cohort.replication.engine.Dispatch;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.engine.ReplicationMetrics.LookupOutcome;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.engine.SessionTransport;
import io.cohort.session.RemovalCause;
import io.cohort.session.SessionCacheControl;
import io.cohort.session.StoredSession;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One application's transport over the shared database ({@code <database>}): every change is one
 * transaction on the session's rows (see {@link SessionWriter}), any node loads a session it does
 * not hold (see {@link SessionLoader}) and becomes its owner. There is no placement and no
 * write-quota: the database is the one copy.
 *
 * <h2>Delivery</h2>
 * Synchronous: the request thread commits before it returns, the whole transaction bounded by the
 * synchronous timeout ({@link TransactionDeadline}: the wait for a pooled connection, each statement and the
 * commit; a database that stops answering holds the request at most {@link TransactionDeadline#NETWORK_GRACE}
 * longer); a timeout is counted in {@code sync.timeouts}, the request continues and the session's next
 * change is a full copy; so is a hand-over at a graceful stop (sent on the delivery's hand-over thread, so the stop
 * itself is bounded by its {@code stopTimeout}). Asynchronous writes are bounded the same way by
 * {@link #BACKGROUND_TIMEOUT}.
 * Asynchronous: the engine's lanes hand this transport up to {@code batch-size} queued changes at a
 * time, waiting at most {@code flush-interval} for a group to fill ({@link #batching()}); a group is
 * one transaction (if it fails, its writes are retried one transaction each, so one bad change does
 * not take the others with it).
 *
 * <h2>Removals</h2>
 * A removal whose deletion failed, timed out or was dropped from a full queue is not forgotten: the session stays
 * tombstoned here and the deletion is retried ({@link #retryRemovals}, on every sweep of the service, and once more
 * when the application stops) until the database takes it, so an invalidated session does not stay loadable by
 * other nodes until it expires. An invalidation (the user signed off) deletes the session's rows whichever node owns
 * them, so a node whose copy went stale (another node loaded the session meanwhile) still ends the session there; an
 * expiry, and the old id of a change of id, delete only this node's rows, so a stale copy's expiry never deletes the
 * live session elsewhere. A deletion still failing when the application stops is left to the sweeper of expired rows.
 *
 * <h2>Losing a session</h2>
 * A write that conflicts (another node loaded the session, or removed it) is counted in
 * {@code conflicts}, logged once, and makes this node evict its live copy from the node's cache;
 * from then on this node neither writes nor deletes the session, until it loads it again.
 * Thread-safe.
 */
final class DatabaseSessionTransport implements SessionTransport {

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseSessionTransport.class);

    /** Budget of an asynchronous write's transaction, the shutdown hand-over's, and reads without another bound. */
    static final Duration BACKGROUND_TIMEOUT = Duration.ofSeconds(30);

    /**
     * How long a copy this node holds goes without the database confirming the row is still this node's before a request
     * that uses it has it checked ({@link #copyStale}).
     */
    static final Duration OWNERSHIP_CHECK_AFTER = Duration.ofSeconds(1);

    /** The most sessions of owners that died one sweep of the node ends (a load, one transaction, each). */
    static final int ORPHANS_PER_SWEEP = 200;
    /** The budget of the query for them: it runs on the node's sweeper thread, before the node's own expiries. */
    static final Duration ORPHAN_QUERY_TIMEOUT = Duration.ofSeconds(10);

    /** The least a load of a session may take, whatever the cache-miss delay. */
    static final Duration SHORTEST_LOAD = Duration.ofSeconds(1);

    private final String application;
    private final SessionWriter writer;
    private final SessionLoader loader;
    private final DatabaseProtocol protocol;
    private final Duration syncTimeout;
    /** How long a request may wait for a session it does not hold: also the bound of an existence check. */
    private final Duration cacheMissDelay;
    private final ReplicationMetrics metrics;
    private final SessionCacheControl cache;
    private final Runnable onClose;
    private final TrackedSessions tracked = new TrackedSessions();
    /**
     * Whether a session is written under its new id in the request that changed it (every trigger but onShutdown):
     * only then are its rows moved to the new id by that write; under onShutdown the old id's rows are deleted at
     * once, as for any retired id, and the session is written under its new id at the stop.
     */
    private final boolean writesAtIdChange;
    private final AtomicBoolean conflictLogged = new AtomicBoolean();
    private final AtomicBoolean failureLogged = new AtomicBoolean();
    private final AtomicBoolean timeoutLogged = new AtomicBoolean();

    DatabaseSessionTransport(String application, SessionWriter writer, SessionLoader loader, DatabaseProtocol protocol,
            ReplicationSettings settings, ReplicationMetrics metrics, SessionCacheControl cache, Runnable onClose) {
        this.application = application;
        this.writer = writer;
        this.loader = loader;
        this.protocol = protocol;
        this.syncTimeout = settings.delivery() instanceof Delivery.Sync sync ? sync.timeout() : null;
        this.writesAtIdChange = settings.trigger() != Trigger.ON_SHUTDOWN;
        this.cacheMissDelay = settings.cacheMissDelay();
        this.metrics = metrics;
        this.cache = cache;
        this.onClose = onClose;
        metrics.gauge(ReplicationMetrics.OWNED, tracked::size);
    }

    @Override
    public boolean tracks(String sessionId) {
        return tracked.tracks(sessionId);
    }

    @Override
    public Dispatch prepare(SessionChange change, boolean acknowledged) {
        TrackedSessions.State state = tracked.forChange(change.id());
        if (state == null) {
            return Dispatch.NONE; // another node took the session over
        }
        if (change.kind() == ChangeKind.FULL) {
            state.needsFull = false;
        }
        state.lastAccessWritten = change.lastAccessed().toEpochMilli();
        state.maxInactiveWritten = change.maxInactiveMillis();
        return new DatabaseDispatch(this, new Store(change, !state.committed, state.renamedFrom),
                acknowledged, state);
    }

    /**
     * A session this node already lost is a conflict at once. Otherwise, when the request writes the session under its
     * new id ({@link #writesAtIdChange}), the rows stay under the old id until that write moves them, under the owner
     * check, and the old id's removal that follows deletes nothing. Under onShutdown the old id's removal deletes
     * them, under the owner check too: if it finds them another node's, the session under its new id is lost.
     */
    @Override
    public boolean idChanging(String oldId, String newId) {
        if (tracked.isDisowned(oldId)) {
            tracked.rename(oldId, newId);
            lost(newId);
        } else if (writesAtIdChange) {
            tracked.rename(oldId, newId);
        } else {
            TrackedSessions.State state = tracked.get(oldId);
            if (state != null && state.committed) {
                tracked.retiring(oldId, newId);
            }
        }
        return true; // the old id's removal deletes only rows still this node's
    }

    /**
     * Deletes the rows of a session this node owns; a session this node never wrote or loaded has no
     * rows of its own, and one another node took over lives on there, unless the application invalidated it here
     * (the user signed off): then its rows go whoever owns them now ({@link Removal.Reach#ANY_OWNER}), even when this
     * node knows its copy is stale. The old id of a change of id is no sign-off: its rows are moved, or deleted only
     * if still this node's.
     */
    @Override
    public Dispatch prepareRemoval(String sessionId, RemovalCause cause) {
        boolean signedOff = cause == RemovalCause.INVALIDATED && !tracked.isRetiring(sessionId);
        tracked.tombstone(sessionId);
        boolean disowned = tracked.forgetDisowned(sessionId);
        TrackedSessions.State state = disowned ? null : tracked.remove(sessionId);
        if (state == null && !(disowned && signedOff)) {
            return Dispatch.NONE;
        }
        // rows no write has moved to this id yet (its write failed, or waits behind this removal) go with it
        List<String> formerIds = state == null ? List.of() : state.renamedFrom;
        return new DatabaseDispatch(this, new Removal(sessionId, formerIds,
                signedOff ? Removal.Reach.ANY_OWNER : Removal.Reach.OWN_ROWS), syncTimeout != null);
    }

    /**
     * Refreshes last access and expiry when a tenth of the inactive interval passed since the last write, and writes
     * a changed inactive interval (with the expiry it gives) at once.
     */
    @Override
    public Dispatch prepareTouch(String sessionId, long version, Instant lastAccessed, long maxInactiveMillis) {
        TrackedSessions.State state = tracked.get(sessionId);
        long accessed = lastAccessed.toEpochMilli();
        if (state == null || !state.committed) {
            return Dispatch.NONE;
        }
        // a new interval is written at once (the row's expiry, and the interval a node that loads it gets, follow it;
        // a session made never-expiring under onShutdown would otherwise be swept at its old expiry while in use)
        boolean intervalChanged = maxInactiveMillis != state.maxInactiveWritten;
        if (!intervalChanged && (maxInactiveMillis <= 0 || accessed - state.lastAccessWritten < maxInactiveMillis / 10)) {
            return Dispatch.NONE;
        }
        state.lastAccessWritten = accessed;
        state.maxInactiveWritten = maxInactiveMillis;
        return new DatabaseDispatch(this, new Touch(sessionId, lastAccessed, maxInactiveMillis), syncTimeout != null);
    }

    @Override
    public void forget(String sessionId) {
        tracked.remove(sessionId);
    }

    @Override
    public Optional<StoredSession> takeOver(String sessionId, Duration wait) {
        if (tracked.tombstoned(sessionId)) {
            metrics.lookedUp(LookupOutcome.NOT_FOUND);
            return Optional.empty();
        }
        try {
            Optional<SessionLoader.Loaded> loaded = loader.load(sessionId, Instant.now(), TransactionDeadline.after(loadBudget(wait)));
            if (loaded.isEmpty()) {
                metrics.lookedUp(LookupOutcome.NOT_FOUND);
                return Optional.empty();
            }
            metrics.lookedUp(LookupOutcome.FOUND_REMOTE);
            return Optional.of(adopted(sessionId, loaded.get()));
        } catch (SQLException e) {
            failed("loading session " + sessionId, e);
            metrics.lookedUp(LookupOutcome.NOT_FOUND);
            return Optional.empty();
        }
    }

    /**
     * A session this node's sweep ends ({@link #expiredOrphans}): only if its rows are still there to be ended, and no
     * lookup is counted (the sweeps of every node of the application try, and one gets it).
     */
    @Override
    public Optional<StoredSession> takeOverToEnd(String sessionId, Duration wait) {
        if (tracked.tombstoned(sessionId)) {
            return Optional.empty();
        }
        try {
            return loader.loadToEnd(sessionId, Instant.now(), TransactionDeadline.after(loadBudget(wait)))
                    .map(loaded -> adopted(sessionId, loaded));
        } catch (SQLException e) {
            failed("loading session " + sessionId + " to end it", e);
            return Optional.empty();
        }
    }

    /**
     * This node owns the session it loaded, or ends it: a session claimed to be ended has no rows left, so it is not
     * tracked (its removal then writes nothing) and does not count as taken over.
     */
    private StoredSession adopted(String sessionId, SessionLoader.Loaded loaded) {
        StoredSession session = loaded.session();
        metrics.receivedBytes(loaded.estimatedBytes());
        metrics.sentBytes(DatabaseWrite.ROW_BYTES); // the claim, or the deletion
        if (loaded.ended()) {
            return session;
        }
        tracked.adopt(sessionId, session.lastAccessed().toEpochMilli(), session.maxInactiveMillis());
        if (!loaded.previousOwner().equals(writerNode())) {
            metrics.tookOver();
        }
        return session;
    }

    /**
     * Whether this node's copy has gone stale: another node loaded (claimed) the session since the database last
     * confirmed the row is this node's, or its row is gone (signed off elsewhere, or swept). Without this check a node
     * the balancer had passed by would serve its old copy to every request that comes back to it (the old cart, or
     * signed on after a sign-off elsewhere) until its next write conflicted, and that write's change would be lost.
     * Checked at most once per {@link #OWNERSHIP_CHECK_AFTER} without a write that confirmed it (one primary-key
     * {@code SELECT}), only for a session whose row this node has written or claimed; bounded as a load is, and a
     * database that does not answer in time leaves the copy in use. A stale copy is handled as a conflicting write is:
     * counted in {@code conflicts}, disowned and evicted, so the request loads the session from the database.
     */
    @Override
    public boolean copyStale(String sessionId) {
        TrackedSessions.State state = tracked.get(sessionId);
        long now = System.nanoTime();
        if (state == null || !state.committed || now - state.confirmedNanos < OWNERSHIP_CHECK_AFTER.toNanos()) {
            return false;
        }
        state.confirmedNanos = now;
        Optional<String> owner;
        try {
            owner = loader.owner(sessionId, TransactionDeadline.after(loadBudget(cacheMissDelay)));
        } catch (SQLException e) {
            failed("checking who owns session " + sessionId, e);
            return false;
        }
        if (owner.isPresent() && owner.get().equals(writerNode())) {
            return false;
        }
        if (tracked.get(sessionId) != state) {
            return false; // written, renamed or removed meanwhile by this node: not the copy that was checked
        }
        lost(sessionId);
        return true;
    }

    /** Every node can load every session from the database: no member holds a copy for this one. */
    @Override
    public List<String> copyHolders(String sessionId) {
        return List.of();
    }

    /**
     * Sessions of owners that died ({@link SessionLoader#endable}), at most {@link #ORPHANS_PER_SWEEP}; every node of
     * the application names them (each a share picked at random), and the deletion at {@link #takeOverToEnd} lets one
     * end each. Not those this node holds. A database that fails or does not answer within {@link #ORPHAN_QUERY_TIMEOUT}
     * names none (logged once): the next sweep tries again.
     */
    @Override
    public Set<String> expiredOrphans(Instant now) {
        try {
            // several nodes name the same rows: each takes its share at random from five times its share, so their
            // sweeps mostly end different sessions
            List<String> endable = new ArrayList<>(
                    loader.endable(now, 5 * ORPHANS_PER_SWEEP, TransactionDeadline.after(ORPHAN_QUERY_TIMEOUT)));
            endable.removeIf(id -> tracked.get(id) != null);
            java.util.Collections.shuffle(endable);
            return new HashSet<>(endable.subList(0, Math.min(ORPHANS_PER_SWEEP, endable.size())));
        } catch (SQLException e) {
            failed("looking for expired sessions of departed owners", e);
            return Set.of();
        }
    }

    @Override
    public boolean holdsCopy(String sessionId) {
        if (tracked.tombstoned(sessionId)) {
            return false;
        }
        try {
            // asked on a request thread (Jetty checks whether a requested id is in use before it starts a session):
            // bounded as a load is
            return loader.exists(sessionId, Instant.now(), TransactionDeadline.after(loadBudget(cacheMissDelay)));
        } catch (SQLException e) {
            failed("looking up session " + sessionId, e);
            return false;
        }
    }

    @Override
    public Batching batching() {
        // a write waits on the database: never on a request thread, so callers never send
        return new Batching(protocol.batchSize(), protocol.flushInterval(), this::sendGroup, CallerSends.NEVER);
    }

    /**
     * Tries the deletions still pending once more (the application stops: no later sweep retries them here), then
     * forgets everything. A deletion that fails again now is left to the sweeper of expired rows.
     */
    @Override
    public void close() {
        onClose.run();
        retryRemovals();
        tracked.clear();
    }

    /** A group from an asynchronous lane: one transaction for all of them. */
    private void sendGroup(List<Dispatch> group) {
        List<DatabaseDispatch> writes = new ArrayList<>(group.size());
        for (Dispatch dispatch : group) {
            if (dispatch instanceof DatabaseDispatch mine) {
                writes.add(mine);
            } else {
                dispatch.send();
            }
        }
        if (!writes.isEmpty()) {
            writeAll(writes, false);
        }
    }

    /**
     * Writes the dispatches in one transaction and settles each; never throws.
     *
     * @param waited whether a request (or the stopping node) waits for them: bounded by the
     *     synchronous timeout when delivery is synchronous
     */
    void writeAll(List<DatabaseDispatch> all, boolean waited) {
        List<DatabaseDispatch> dispatches = withoutEarlierOwnerships(all);
        if (dispatches.isEmpty()) {
            return;
        }
        boolean sync = waited && syncTimeout != null;
        TransactionDeadline deadline = TransactionDeadline.after(sync ? syncTimeout : BACKGROUND_TIMEOUT);
        try {
            List<Outcome> outcomes = writer.writeAll(dispatches.stream().map(DatabaseDispatch::write).toList(), deadline);
            for (int i = 0; i < dispatches.size(); i++) {
                settle(dispatches.get(i), outcomes.get(i));
            }
        } catch (SQLException e) {
            boolean timedOut = isTimeout(e) || deadline.passed(); // a network timeout surfaces as a broken connection
            if (dispatches.size() > 1 && !timedOut) {
                for (DatabaseDispatch dispatch : dispatches) {
                    writeAll(List.of(dispatch), waited); // isolate the write that failed
                }
                return;
            }
            for (DatabaseDispatch dispatch : dispatches) {
                missed(dispatch);
                dispatch.notApplied(e.toString());
            }
            if (sync && timedOut) {
                timedOut(dispatches.get(0).write().sessionId());
            } else {
                dispatches.forEach(d -> failed("writing session " + d.write().sessionId(), e));
            }
        } catch (RuntimeException e) {
            dispatches.forEach(d -> {
                missed(d);
                failed("writing session " + d.write().sessionId(), e);
                d.notApplied(e.toString());
            });
        } finally {
            dispatches.forEach(DatabaseDispatch::done);
        }
    }

    /**
     * The dispatches without the changes prepared while this node owned the session before: it lost the session
     * since (a write conflicted) and took it back (a load claimed the row again, with the other node's state), and
     * such a change, still queued, would match the row under the node's name and could match its version too.
     * Those end as not applied, unwritten.
     */
    private List<DatabaseDispatch> withoutEarlierOwnerships(List<DatabaseDispatch> dispatches) {
        List<DatabaseDispatch> current = null;
        for (int i = 0; i < dispatches.size(); i++) {
            DatabaseDispatch dispatch = dispatches.get(i);
            TrackedSessions.State now = dispatch.preparedUnder() == null ? null : tracked.get(dispatch.write().sessionId());
            boolean earlier = now != null && now != dispatch.preparedUnder();
            if (earlier && current == null) {
                current = new ArrayList<>(dispatches.subList(0, i));
            }
            if (earlier) {
                dispatch.notApplied("prepared before this node lost the session and took it back");
                dispatch.done();
            } else if (current != null) {
                current.add(dispatch);
            }
        }
        return current == null ? dispatches : current;
    }

    /**
     * Whether the session the write was prepared for got another id since: the next write under that id moves these
     * rows, or its removal deletes them, so they are not deleted on their own (the session still lives in them).
     */
    private static boolean renamedSince(DatabaseDispatch dispatch, String sessionId) {
        return dispatch.preparedUnder() != null && dispatch.preparedUnder().renamedFrom.contains(sessionId);
    }

    /** A queued write was dropped: the next change of its session is written in full, a removal is retried. */
    void abandoned(DatabaseDispatch dispatch) {
        missed(dispatch);
    }

    /** A write did not reach the database. */
    private void missed(DatabaseDispatch dispatch) {
        String sessionId = dispatch.write().sessionId();
        if (dispatch.write() instanceof Removal removal) {
            tracked.removalPending(sessionId, removal.reach());
            removal.formerIds().forEach(formerId -> tracked.removalPending(formerId, Removal.Reach.OWN_ROWS));
        } else {
            tracked.needsFull(sessionId);
        }
    }

    /**
     * Retries the deletions of removed sessions that did not reach the database, {@code batch-size} of them per
     * transaction (after a long outage there can be more than one transaction's budget deletes: in one transaction
     * they would time out and roll back on every retry, and never drain); those that fail again stay pending. A
     * transaction in which none succeeded ends the round (the database is still away; the next sweep tries again).
     * Called from the service's sweeper thread and at close; never throws.
     */
    void retryRemovals() {
        Map<String, Removal.Reach> reaches = tracked.pendingRemovals();
        List<String> pending = List.copyOf(reaches.keySet());
        for (int from = 0; from < pending.size(); from += protocol.batchSize()) {
            List<String> chunk = pending.subList(from, Math.min(pending.size(), from + protocol.batchSize()));
            writeAll(chunk.stream().map(id -> new DatabaseDispatch(this, new Removal(id, reaches.get(id)), false)).toList(),
                    false);
            if (chunk.stream().allMatch(tracked::isRemovalPending)) {
                return;
            }
        }
    }

    private void settle(DatabaseDispatch dispatch, Outcome outcome) {
        DatabaseWrite write = dispatch.write();
        switch (outcome) {
            case WRITTEN -> {
                if (write instanceof Store store) {
                    TrackedSessions.State state = tracked.get(store.sessionId());
                    if (state != null) {
                        state.committed = true;
                        state.confirmedNanos = System.nanoTime();
                        if (!store.renamedFrom().isEmpty() && store.renamedFrom().equals(state.renamedFrom)) {
                            state.renamedFrom = List.of(); // the rows are under this id now
                        }
                    } else if (tracked.tombstoned(store.sessionId()) && !renamedSince(dispatch, store.sessionId())) {
                        // removed while this change waited: delete what it wrote again
                        tracked.removalPending(store.sessionId(), Removal.Reach.OWN_ROWS);
                    }
                    metrics.sent(store.change().attributeCount(), store.estimatedBytes());
                } else {
                    metrics.sentBytes(write.estimatedBytes());
                    TrackedSessions.State touched = write instanceof Touch ? tracked.get(write.sessionId()) : null;
                    if (touched != null) {
                        touched.confirmedNanos = System.nanoTime();
                    }
                    if (write instanceof Removal removal) {
                        tracked.removalDone(write.sessionId());
                        removal.formerIds().forEach(tracked::removalDone);
                        tracked.retired(write.sessionId());
                    }
                }
            }
            case CONFLICT -> {
                lost(write.sessionId());
                dispatch.notApplied("another node owns the session");
            }
            case GAP -> {
                tracked.needsFull(write.sessionId());
                dispatch.notApplied("the row's version did not match; the session is written in full next time");
            }
            case SKIPPED -> {
                tracked.removedElsewhereOrNowhere(write.sessionId()); // nothing of this node's to delete
                String renamedTo = tracked.retired(write.sessionId());
                if (renamedTo != null) {
                    lost(renamedTo); // another node took the session over before this node gave it a new id
                }
            }
        }
    }

    /** Another node owns the session: stop writing it and drop the stale live copy. */
    private void lost(String sessionId) {
        metrics.conflicted();
        tracked.disown(sessionId);
        cache.evict(sessionId);
        if (conflictLogged.compareAndSet(false, true)) {
            LOG.warn("{}: session {} is owned by another node now (its row changed owner or was removed); this node's "
                    + "copy is stale and was evicted (further conflicts are only counted in {})", application, sessionId,
                    ReplicationMetrics.CONFLICTS);
        } else {
            LOG.debug("{}: session {} is owned by another node now", application, sessionId);
        }
    }

    private void timedOut(String sessionId) {
        metrics.syncTimedOut();
        if (timeoutLogged.compareAndSet(false, true)) {
            LOG.warn("{}: writing session {} to the database took longer than {}; the request continues (further "
                    + "timeouts are only counted in {})", application, sessionId, syncTimeout, ReplicationMetrics.SYNC_TIMEOUTS);
        }
    }

    private void failed(String what, Exception e) {
        metrics.failed();
        if (failureLogged.compareAndSet(false, true)) {
            LOG.warn("{}: {} failed (further failures are only counted in {}): {}", application, what,
                    ReplicationMetrics.FAILURES, e.toString());
        } else {
            LOG.debug("{}: {} failed", application, what, e);
        }
    }

    private String writerNode() {
        return loader.nodeName();
    }

    static boolean isTimeout(SQLException e) {
        return e instanceof SQLTimeoutException || e instanceof SQLTransientConnectionException
                || "57014".equals(e.getSQLState());
    }

    /** A load's budget: the cache-miss delay, at least {@link #SHORTEST_LOAD} (a JDBC query timeout's unit). */
    static Duration loadBudget(Duration wait) {
        return wait.compareTo(SHORTEST_LOAD) < 0 ? SHORTEST_LOAD : wait;
    }
}
