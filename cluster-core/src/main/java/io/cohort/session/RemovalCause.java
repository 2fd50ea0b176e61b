package io.cohort.session;

/** Why the owner removed a session. */
public enum RemovalCause {
    /** The application called {@code HttpSession.invalidate()}. */
    INVALIDATED,
    /** The owner found the session idle for longer than its maximum inactive interval. */
    EXPIRED
}
