package io.cohort.balancer;

/**
 * A member's up/down state from consecutive health check results: {@code fall} failures in a row
 * take an up member down, {@code rise} passes in a row bring a down member back, and a failed
 * connection (passive check) takes it down at once. Members start up. Thread-safe; reading
 * {@link #isUp()} is a volatile read, cheap enough for every routing decision.
 */
final class HealthState {

    /** What a result did to the state. */
    enum Change { NONE, WENT_DOWN, CAME_UP }

    private final int fall;
    private final int rise;
    private volatile boolean up = true;
    private int failures;
    private int passes;

    HealthState(int fall, int rise) {
        if (fall < 1 || rise < 1) {
            throw new IllegalArgumentException("fall and rise must be at least 1");
        }
        this.fall = fall;
        this.rise = rise;
    }

    boolean isUp() {
        return up;
    }

    synchronized Change checkPassed() {
        failures = 0;
        if (up) {
            return Change.NONE;
        }
        if (++passes >= rise) {
            up = true;
            passes = 0;
            return Change.CAME_UP;
        }
        return Change.NONE;
    }

    synchronized Change checkFailed() {
        passes = 0;
        if (!up) {
            return Change.NONE;
        }
        if (++failures >= fall) {
            up = false;
            failures = 0;
            return Change.WENT_DOWN;
        }
        return Change.NONE;
    }

    /** A connection to the member failed: it is down now and must pass {@code rise} checks. */
    synchronized Change connectFailed() {
        passes = 0;
        failures = 0;
        if (!up) {
            return Change.NONE;
        }
        up = false;
        return Change.WENT_DOWN;
    }
}
