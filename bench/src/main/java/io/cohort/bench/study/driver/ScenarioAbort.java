package io.cohort.bench.study.driver;

/**
 * Ends a scenario early: the session was lost or stale (the check failed), or a page failed (an error). The
 * user then starts a new scenario with a new session.
 */
final class ScenarioAbort extends RuntimeException {

    private final ScenarioOutcome outcome;
    private final boolean pageCounted;

    private ScenarioAbort(ScenarioOutcome outcome, String reason, boolean pageCounted) {
        super(reason, null, false, false);
        this.outcome = outcome;
        this.pageCounted = pageCounted;
    }

    /** The user was found signed off, with a foreign or stale cart or order draft, or a wrong order total. */
    static ScenarioAbort sessionLost(String reason) {
        return new ScenarioAbort(ScenarioOutcome.SESSION_LOST, reason, false);
    }

    /** A page failed that the browser already counted as an error: no response (connection error, timeout), or 5xx. */
    static ScenarioAbort failedPage(String reason) {
        return new ScenarioAbort(ScenarioOutcome.ERROR, reason, true);
    }

    /** A page arrived but is not what the scenario expects (a 4xx, another page, missing content): an error too. */
    static ScenarioAbort error(String reason) {
        return new ScenarioAbort(ScenarioOutcome.ERROR, reason, false);
    }

    /** The run ended before the scenario's next page. */
    static ScenarioAbort cutShort() {
        return new ScenarioAbort(ScenarioOutcome.CUT_SHORT, "the run ended", false);
    }

    ScenarioOutcome outcome() {
        return outcome;
    }

    /** Whether the page that ended the scenario is already counted among the errors. */
    boolean pageCounted() {
        return pageCounted;
    }
}
