package io.cohort.bench.tomcat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TomcatNodeOptionsTest {

    @TempDir
    Path dir;

    private String[] args(String... replacements) throws Exception {
        Path war = dir.resolve("shop.war");
        if (!Files.exists(war)) {
            Files.createFile(war);
        }
        List<String> args = new ArrayList<>(List.of("--http-port", "26081", "--route", "n1", "--manager", "backup",
                "--receiver-port", "26091", "--members", "127.0.0.1:26091, 127.0.0.1:26092", "--war", war.toString(),
                "--work-dir", dir.resolve("n1").toString(), "--db-url", "jdbc:h2:mem:x"));
        for (int i = 0; i < replacements.length; i += 2) {
            int at = args.indexOf(replacements[i]);
            args.set(at + 1, replacements[i + 1]);
        }
        return args.toArray(String[]::new);
    }

    @Test
    void readsACompleteCommandLineWithDefaults() throws Exception {
        TomcatNodeOptions options = TomcatNodeOptions.parse(args());

        assertThat(options.manager()).isEqualTo(SessionReplication.BACKUP);
        assertThat(options.delivery()).isEqualTo(Delivery.ASYNC);
        assertThat(options.members()).containsExactly(new ClusterMember("127.0.0.1", 26091),
                new ClusterMember("127.0.0.1", 26092));
        assertThat(options.contextPath()).isEqualTo("/jpetstore");
        assertThat(options.exitWithParent()).isFalse();
    }

    @Test
    void namesWhatIsWrong() throws Exception {
        assertThatThrownBy(() -> TomcatNodeOptions.parse(args("--manager", "all")))
                .hasMessage("--manager must be none, delta or backup, not 'all'");
        assertThatThrownBy(() -> TomcatNodeOptions.parse(args("--members", "127.0.0.1:26092")))
                .hasMessageContaining("must include this node's receiver (port 26091)");
        assertThatThrownBy(() -> TomcatNodeOptions.parse(args("--members", "127.0.0.1")))
                .hasMessageContaining("a member is host:port");
        assertThatThrownBy(() -> TomcatNodeOptions.parse(args("--war", dir.resolve("none.war").toString())))
                .hasMessageContaining("no such file");
        assertThatThrownBy(() -> TomcatNodeOptions.parse("--http-port")).hasMessage("--http-port needs a value");
    }

    @Test
    void everyNodeDerivesTheSameUniqueIdForAMember() {
        assertThat(new ClusterMember("127.0.0.1", 4000).uniqueId()).hasSize(16)
                .isEqualTo(ClusterMember.parse("127.0.0.1:4000").uniqueId())
                .isNotEqualTo(new ClusterMember("127.0.0.1", 4001).uniqueId());
    }
}
