package io.cohort.bench.sut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ContextSwitchesTest {

    @Test
    void aThreadThatSleepsRepeatedlyAddsAtLeastOneSwitchPerSleep() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
        CountDownLatch slept = new CountDownLatch(1);
        CountDownLatch counted = new CountDownLatch(1);
        ContextSwitches before = ContextSwitches.ofThisProcess().orElseThrow();
        Thread sleeper = new Thread(() -> {
            try {
                for (int i = 0; i < 50; i++) {
                    Thread.sleep(1);
                }
                slept.countDown();
                counted.await(10, TimeUnit.SECONDS); // still alive when counted below
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        sleeper.start();
        assertThat(slept.await(10, TimeUnit.SECONDS)).isTrue();
        ContextSwitches after = ContextSwitches.ofThisProcess().orElseThrow();
        counted.countDown();
        sleeper.join();
        assertThat(after.since(before)).isGreaterThanOrEqualTo(50);
    }

    @Test
    void threadsThatEndedBetweenReadingsNeverMakeTheCountNegative() {
        ContextSwitches earlier = new ContextSwitches(Map.of(1L, 100L, 2L, 5_000L));
        ContextSwitches later = new ContextSwitches(Map.of(1L, 130L, 3L, 7L));
        assertThat(later.since(earlier)).isEqualTo(30 + 7);
    }

    @Test
    void aReusedThreadIdCountsFromZero() {
        ContextSwitches earlier = new ContextSwitches(Map.of(1L, 900L));
        ContextSwitches later = new ContextSwitches(Map.of(1L, 12L));
        assertThat(later.since(earlier)).isEqualTo(12);
    }

    @Test
    void aProcessThatIsGoneHasNoCount() {
        assertThat(ContextSwitches.of(Long.MAX_VALUE)).isEqualTo(Optional.empty());
    }
}
