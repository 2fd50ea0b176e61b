package io.cohort.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.cli.cluster.JavaCommand;
import io.cohort.cli.node.NodeAnnouncement;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NodeCommandTest {

    @TempDir
    Path dir;

    @Test
    void invalidConfigurationExitsWithTwoAndPrintsOneLineWithFileLineAndColumn() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.xml"), """
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" http-port="eighty"/>
                </cohort>
                """);

        CommandRun run = CommandRun.of("node", "--config", bad.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.errLines()).as(run.toString()).singleElement().asString()
                .startsWith(bad + ":2:")
                .matches(".*bad\\.xml:2:\\d+: .*http-port.*")
                .doesNotContain("Exception", "\tat ");
    }

    @Test
    void malformedConfigurationIsReportedWhereTheXmlBreaks() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.xml"), "<cohort xmlns=\"urn:cohort:config:1\">\n  <node name=\"n1\">\n");

        CommandRun run = CommandRun.of("node", "-c", bad.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.errLines()).singleElement().asString().matches(".*bad\\.xml:\\d+:\\d+: .*");
    }

    @Test
    void missingConfigurationFileExitsWithTwo() {
        CommandRun run = CommandRun.of("node", "--config", dir.resolve("missing.xml").toString());

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.errLines()).singleElement().asString().startsWith(dir.resolve("missing.xml") + ":1:1: ");
    }

    @Test
    void nodeWithoutConfigOptionIsAUsageError() {
        CommandRun run = CommandRun.of("node");

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("Missing required option: '--config=FILE'");
    }

    @Test
    void nodeAnnouncesItsAddressesWhenServingAndExitsWithZeroAfterAdminStop() throws Exception {
        Files.writeString(dir.resolve("token"), "node-test-token\n");
        Path config = Files.writeString(dir.resolve("cohort.xml"), """
                <cohort xmlns="urn:cohort:config:1">
                  <node name="solo" host="hostA" http-port="0" webapps="webapps" work-dir="work" graceful-stop="5s"/>
                  <admin port="0" token-file="token"/>
                </cohort>
                """);
        Path ready = dir.resolve("ready.json");
        CompletableFuture<CommandRun> node = CompletableFuture.supplyAsync(
                () -> CommandRun.of("node", "--config", config.toString(), "--ready-file", ready.toString()));

        Poll.until(Duration.ofSeconds(20), "ready file", () -> Files.exists(ready) || node.isDone());
        NodeAnnouncement announced = NodeAnnouncement.read(ready);
        assertThat(announced.name()).isEqualTo("solo");
        assertThat(announced.host()).isEqualTo("hostA");
        assertThat(announced.pid()).isEqualTo(ProcessHandle.current().pid());
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> stop = http.send(HttpRequest.newBuilder(announced.admin().resolve("/admin/stop"))
                .header("Authorization", "Bearer node-test-token").POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(stop.statusCode()).isEqualTo(202);
        CommandRun run = node.get(20, TimeUnit.SECONDS);
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.OK);
    }

    @Test
    void aNodeWhoseLauncherDiedBeforeTheNodeLookedDoesNotLiveOnAsAnOrphan() throws Exception {
        Files.writeString(dir.resolve("token"), "node-test-token\n");
        Path config = Files.writeString(dir.resolve("cohort.xml"), """
                <cohort xmlns="urn:cohort:config:1">
                  <node name="orphan" http-port="0" webapps="webapps" work-dir="work" graceful-stop="5s"/>
                  <admin port="0" token-file="token"/>
                </cohort>
                """);
        Path log = dir.resolve("node.log");
        List<String> node = JavaCommand.current().command(List.of("node", "--config", config.toString()));
        // a launcher that starts the node (passing its own pid, as `cohort cluster` does) and dies at once,
        // before the node's JVM is up: the node is handed to another parent
        Process launcher = new ProcessBuilder(Stream.concat(Stream.of("sh", "-c",
                        "\"$@\" --exit-with-parent=$$ >'" + log + "' 2>&1 & echo $!", "sh"), node.stream()).toList())
                .redirectErrorStream(true).start();
        long nodePid = Long.parseLong(new String(launcher.getInputStream().readAllBytes()).trim());
        assertThat(launcher.waitFor(10, TimeUnit.SECONDS)).isTrue();

        try {
            Poll.until(Duration.ofSeconds(20), "the node to exit (log: " + log + ")",
                    () -> ProcessHandle.of(nodePid).map(p -> !p.isAlive()).orElse(true));
        } finally {
            ProcessHandle.of(nodePid).ifPresent(ProcessHandle::destroyForcibly);
        }
        assertThat(Files.readString(log)).contains("the process that started this node");
    }
}
