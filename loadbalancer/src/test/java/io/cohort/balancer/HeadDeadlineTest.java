package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link HeadDeadline} on its own: which passing deadlines close a connection. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HeadDeadlineTest {

    private static final Duration TIMEOUT = Duration.ofMillis(100);

    private final ScheduledExecutorScheduler scheduler = new ScheduledExecutorScheduler("head-deadline-test", true);
    private final AtomicLong bytesIn = new AtomicLong();
    private final AtomicInteger expired = new AtomicInteger();
    private final CountDownLatch firstExpiry = new CountDownLatch(1);
    private HeadDeadline deadline;

    @BeforeEach
    void start() throws Exception {
        scheduler.start();
        deadline = new HeadDeadline(scheduler, TIMEOUT, bytesIn::get, () -> {
            expired.incrementAndGet();
            firstExpiry.countDown();
        });
    }

    @AfterEach
    void stop() throws Exception {
        deadline.destroy();
        scheduler.stop();
    }

    @Test
    void aHeadBegunButNotFinishedExpiresOnce() throws Exception {
        deadline.arm();
        bytesIn.addAndGet(20);

        assertThat(firstExpiry.await(5, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(5 * TIMEOUT.toMillis());
        assertThat(expired).hasValue(1);
    }

    @Test
    void anIdleConnectionNeverExpiresButAHeadBegunAfterManyDeadlinesDoes() throws Exception {
        deadline.arm();
        Thread.sleep(5 * TIMEOUT.toMillis()); // five deadlines pass with nothing received
        assertThat(expired).as("idle is not slow").hasValue(0);

        bytesIn.addAndGet(3);
        assertThat(firstExpiry.await(5, TimeUnit.SECONDS)).as("the deadline kept running").isTrue();
    }

    /**
     * The last idle deadline passes an instant after the client began its next head, before Jetty parsed it: the head
     * gets a whole timeout more. Before, the connection was closed at once, and the request just sent got no answer
     * (seen under load: a keep-alive connection idle for longer than the timeout, then a GET answered by EOF).
     */
    @Test
    void aHeadBegunAnInstantBeforeADeadlinePassesGetsAWholeTimeoutMore() {
        AtomicInteger closed = new AtomicInteger();
        HeadDeadline idleFirst = new HeadDeadline(scheduler, Duration.ofHours(1), bytesIn::get, closed::incrementAndGet);
        try {
            idleFirst.arm();
            idleFirst.onTimeoutExpired(); // idle
            bytesIn.addAndGet(120); // the next head arrives
            idleFirst.onTimeoutExpired(); // the deadline passes before the head was parsed
            assertThat(closed).as("closures of a head begun an instant before the deadline passed").hasValue(0);

            idleFirst.onTimeoutExpired(); // a whole timeout later the head is still not complete
            assertThat(closed).hasValue(1);
        } finally {
            idleFirst.destroy();
        }
    }

    @Test
    void aHeadCompleteInTimeDisarmsIt() throws Exception {
        deadline.arm();
        bytesIn.addAndGet(200);
        deadline.disarm();

        Thread.sleep(5 * TIMEOUT.toMillis());
        assertThat(expired).hasValue(0);
    }

    @Test
    void aClosedConnectionIsNotArmedAgain() throws Exception {
        deadline.destroy();
        deadline.arm(); // an answer that ends after the connection closed
        bytesIn.addAndGet(10);

        Thread.sleep(5 * TIMEOUT.toMillis());
        assertThat(expired).hasValue(0);
    }
}
