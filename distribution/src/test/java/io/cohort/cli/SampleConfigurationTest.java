package io.cohort.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.BalancerConfig;
import io.cohort.config.BalancerMember;
import io.cohort.config.CohortConfig;
import io.cohort.config.Policy;
import io.cohort.config.ConfigLoader;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The files the distribution ships in conf/. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SampleConfigurationTest {

    private static final Path CONF = Path.of("src/main/dist/conf");

    @Test
    void sampleNodeConfigurationIsValidAndUsesTheDistributionsWebapps() throws Exception {
        Path file = CONF.resolve("cohort.xml");
        CohortConfig config;
        try (InputStream in = Files.newInputStream(file)) {
            config = ConfigLoader.parse(file.toString(), in, CONF, Map.of("COHORT_ADMIN_TOKEN", "t")::get);
        }

        assertThat(config.node().name()).isEqualTo("n1");
        assertThat(config.node().webapps()).isEqualTo(CONF.resolve("../webapps").toAbsolutePath().normalize());
        assertThat(config.admin().apiEnabled()).isTrue();
        assertThat(config.admin().bindAddress()).isEqualTo("127.0.0.1");
        assertThat(config.replicated()).isFalse();
    }

    @Test
    void sampleBalancerConfigurationIsValid() throws Exception {
        BalancerConfig config = ConfigLoader.loadBalancer(CONF.resolve("balancer.xml"));

        assertThat(config.policy()).isEqualTo(Policy.ROUND_ROBIN_LOCAL);
        assertThat(config.members()).extracting(BalancerMember::name).containsExactly("n1", "n2");
        assertThat(config.host()).isEqualTo("host1");
    }

    @Test
    void logbackConfigurationLogsTimeLevelThreadLoggerAndMessageToStdout() throws Exception {
        String logback = Files.readString(CONF.resolve("logback.xml"));

        assertThat(logback).contains("<target>System.out</target>")
                .contains("%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n");
    }
}
