package io.cohort.bench.study.driver;

/** How one scenario (sign on … sign off) of a virtual user ended. */
public enum ScenarioOutcome {
    /** Every check passed and the user signed off. */
    COMPLETED,
    /** The session was lost or stale: signed off mid-scenario, a cart or order that is not what the user added. */
    SESSION_LOST,
    /** A page failed (connection error, timeout, 5xx, unexpected page); the session's state is unknown. */
    ERROR,
    /** The run ended while the scenario was in flight. */
    CUT_SHORT
}
