package io.cohort.cli.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.cli.CommandRun;
import io.cohort.cli.ExitCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BalancerCommandTest {

    @TempDir
    Path dir;

    @Test
    void invalidBalancerConfigurationIsOneLineWithFileLineColumnAndExitCode2() throws Exception {
        Path config = dir.resolve("balancer.xml");
        Files.writeString(config, """
                <cohort xmlns="urn:cohort:config:1">
                  <balancer name="lb1" policy="roundrobin:everywhere">
                    <balancer-member name="n1" url="http://127.0.0.1:8081"/>
                  </balancer>
                </cohort>
                """);

        CommandRun run = CommandRun.of("balancer", "--config", config.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err().strip()).startsWith(config + ":2:").contains("roundrobin:everywhere")
                .doesNotContain("\n").doesNotContain("Exception");
    }

    @Test
    void fileWithoutABalancerIsRefused() throws Exception {
        Path config = dir.resolve("node.xml");
        Files.writeString(config, """
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                </cohort>
                """);

        CommandRun run = CommandRun.of("balancer", "--config", config.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains(config.toString()).contains("balancer");
    }
}
