package io.cohort.bench.sut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ContextSwitchesTest {

    @Test
    void aThreadThatSleepsRepeatedlyAddsAtLeastOneSwitchPerSleep() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
        long before = ContextSwitches.ofThisProcess().orElseThrow();
        Thread sleeper = new Thread(() -> {
            for (int i = 0; i < 50; i++) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
            }
            try {
                Thread.sleep(200); // still alive when counted below
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        sleeper.start();
        Thread.sleep(150);
        long after = ContextSwitches.ofThisProcess().orElseThrow();
        sleeper.join();
        assertThat(after - before).isGreaterThanOrEqualTo(50);
    }

    @Test
    void aProcessThatIsGoneHasNoCount() {
        assertThat(ContextSwitches.of(Long.MAX_VALUE)).isEqualTo(OptionalLong.empty());
    }
}
