package io.cohort.bench.study.driver;

/**
 * Ends a scenario early: the session was lost or stale (the check failed), or a page failed (an error). The
 * user then starts a new scenario with a new session.
 */
final class ScenarioAbort extends RuntimeException {

    private final ScenarioOutcome outcome;

    private ScenarioAbort(ScenarioOutcome outcome, String reason) {
        super(reason, null, false, false);
        this.outcome = outcome;
    }

    /** The user was found signed off, with a foreign or stale cart, or a wrong order total. */
    static ScenarioAbort sessionLost(String reason) {
        return new ScenarioAbort(ScenarioOutcome.SESSION_LOST, reason);
    }

    /** A page failed: connection error, timeout, 5xx, or content that is not what the scenario expects. */
    static ScenarioAbort error(String reason) {
        return new ScenarioAbort(ScenarioOutcome.ERROR, reason);
    }

    /** The run ended before the scenario's next page. */
    static ScenarioAbort cutShort() {
        return new ScenarioAbort(ScenarioOutcome.CUT_SHORT, "the run ended");
    }

    ScenarioOutcome outcome() {
        return outcome;
    }
}
