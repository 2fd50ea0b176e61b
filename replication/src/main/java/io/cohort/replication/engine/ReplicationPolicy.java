package io.cohort.replication.engine;

import io.cohort.config.Scope;
import io.cohort.config.Trigger;
import java.util.Objects;

/**
 * The trigger and scope of DESIGN.md section 3 as decisions: at which session event a change is
 * sent, and whether it carries the whole session or only what changed. Pure and immutable; the
 * {@link ReplicatingSessionStore} asks it at every event.
 *
 * <table>
 *   <caption>When changes are sent</caption>
 *   <tr><th>event</th><th>onSetAttribute</th><th>onRequestEnd</th><th>onShutdown</th></tr>
 *   <tr><td>created</td><td>full copy</td><td>-</td><td>-</td></tr>
 *   <tr><td>attribute changed</td><td>change</td><td>-</td><td>-</td></tr>
 *   <tr><td>request completed</td><td>what is left (normally only a touch)</td><td>change</td><td>-</td></tr>
 *   <tr><td>id changed</td><td>full copy under the new id</td><td>full copy under the new id</td><td>-</td></tr>
 *   <tr><td>shutting down</td><td>what is left, acknowledged</td><td>what is left, acknowledged</td><td>full copy, acknowledged</td></tr>
 * </table>
 * Removal of a session that was ever replicated is sent under every trigger.
 *
 * @param trigger when changes are sent
 * @param scope   what a change contains
 */
public record ReplicationPolicy(Trigger trigger, Scope scope) {

    public ReplicationPolicy {
        Objects.requireNonNull(trigger, "trigger");
        Objects.requireNonNull(scope, "scope");
    }

    /** Whether sessions are replicated during normal operation (every trigger but onShutdown). */
    public boolean continuous() {
        return trigger != Trigger.ON_SHUTDOWN;
    }

    public boolean sendsOnCreate() {
        return trigger == Trigger.ON_SET_ATTRIBUTE;
    }

    public boolean sendsOnAttributeChange() {
        return trigger == Trigger.ON_SET_ATTRIBUTE;
    }

    /** onSetAttribute also sends at request end, to catch up on anything not yet sent and to touch. */
    public boolean sendsOnRequestEnd() {
        return continuous();
    }

    /**
     * Whether a change carries every attribute: always with allAttributes, and for a session the
     * transport has not replicated yet; onShutdown hands over the whole session.
     */
    public boolean sendsEverything(boolean firstTime, boolean shuttingDown) {
        return scope == Scope.ALL_ATTRIBUTES || firstTime || (shuttingDown && !continuous());
    }
}
