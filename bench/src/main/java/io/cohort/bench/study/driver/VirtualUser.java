package io.cohort.bench.study.driver;

import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * One closed-loop virtual user: runs scenarios one after another, each with a new session, until the run
 * stops; reports every scenario's outcome. Never blocks a thread: each page is a callback of the previous one, and
 * a user the driver does not admit yet looks again after {@link #ADMISSION_POLL_MILLIS}.
 */
final class VirtualUser {

    /** How often a user waiting for admission asks again. */
    static final long ADMISSION_POLL_MILLIS = 50;

    private final DriverContext context;
    private final ShopBrowser browser;
    private final Random random;
    private final CompletableFuture<Void> finished = new CompletableFuture<>();

    VirtualUser(DriverContext context, ShopBrowser browser, Random random) {
        this.context = context;
        this.browser = browser;
        this.random = random;
    }

    /** Starts the first scenario; {@link #finished()} completes when the user has stopped. */
    void start() {
        nextScenario();
    }

    CompletableFuture<Void> finished() {
        return finished;
    }

    private void nextScenario() {
        if (context.stopping()) {
            finished.complete(null);
            return;
        }
        if (!context.admits()) {
            context.timer.schedule(this::nextScenario, ADMISSION_POLL_MILLIS, TimeUnit.MILLISECONDS);
            return;
        }
        browser.forget();
        CompletableFuture<Void> scenario;
        try {
            scenario = new ShopScenario(browser, random, context).run();
        } catch (RuntimeException e) {
            scenario = CompletableFuture.failedFuture(e);
        }
        scenario.whenComplete((done, failure) -> {
            ScenarioOutcome outcome = failure == null ? ScenarioOutcome.COMPLETED : outcomeOf(failure);
            long now = System.nanoTime();
            if (outcome == ScenarioOutcome.ERROR && !pageCounted(failure)) {
                if (unwrap(failure) instanceof ScenarioAbort) {
                    context.stats.unexpectedPage(now); // a page that arrived but was not the one expected is an error too
                } else {
                    context.stats.failedWithoutResponse(now); // the driver failed, not a page: an error, and no page
                }
            }
            context.stats.scenario(now, outcome);
            if (failure != null && outcome != ScenarioOutcome.CUT_SHORT) {
                context.stats.example(outcome, messageOf(failure));
            }
            nextScenario();
        });
    }

    private static ScenarioOutcome outcomeOf(Throwable failure) {
        Throwable cause = unwrap(failure);
        return cause instanceof ScenarioAbort abort ? abort.outcome() : ScenarioOutcome.ERROR;
    }

    private static boolean pageCounted(Throwable failure) {
        return unwrap(failure) instanceof ScenarioAbort abort && abort.pageCounted();
    }

    private static String messageOf(Throwable failure) {
        Throwable cause = unwrap(failure);
        return cause instanceof ScenarioAbort ? cause.getMessage() : "driver failure: " + cause;
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
