package io.cohort.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MainTest {

    @Test
    void unknownOrMissingCommandIsAUsageError() {
        assertThat(CommandRun.of("bogus").exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(CommandRun.of().exitCode()).isEqualTo(ExitCode.USAGE);
    }

    @Test
    void everyCommandHasHelpWithExamples() {
        for (String command : new String[] {"node", "cluster", "deploy", "undeploy", "status"}) {
            CommandRun run = CommandRun.of(command, "--help");
            assertThat(run.exitCode()).as(command).isEqualTo(ExitCode.OK);
            assertThat(run.out()).as(command).contains("Usage: cohort " + command).contains("Examples:");
        }
    }

    @Test
    void versionNamesTheJavaItRunsOn() {
        CommandRun run = CommandRun.of("--version");

        assertThat(run.exitCode()).isEqualTo(ExitCode.OK);
        assertThat(run.out()).startsWith("cohort ").contains("Java " + System.getProperty("java.version"));
    }
}
