package io.cohort.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which of the launcher's JVM options its node JVMs get. */
class JavaCommandTest {

    @Test
    void settingsAndMemoryFlagsArePassedOn() {
        assertThat(JavaCommand.forwardable("-Dlogback.configurationFile=conf/logback.xml")).isTrue();
        assertThat(JavaCommand.forwardable("-Xmx2g")).isTrue();
        assertThat(JavaCommand.forwardable("-XX:+UseG1GC")).isTrue();
    }

    @Test
    void optionsThatWouldClashBetweenProcessesAreNot() {
        // a second JVM on the launcher's JMX or debugger port would not start
        assertThat(JavaCommand.forwardable("-Dcom.sun.management.jmxremote.port=9010")).isFalse();
        assertThat(JavaCommand.forwardable("-Dcom.sun.management.jmxremote")).isFalse();
        assertThat(JavaCommand.forwardable("-Xrunjdwp:transport=dt_socket,server=y,address=5005")).isFalse();
        assertThat(JavaCommand.forwardable("-XX:StartFlightRecording=filename=launcher.jfr")).isFalse();
        assertThat(JavaCommand.forwardable("-javaagent:agent.jar")).isFalse();
    }
}
