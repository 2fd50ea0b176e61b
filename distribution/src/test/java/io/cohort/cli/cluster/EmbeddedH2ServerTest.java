package io.cohort.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local cluster's H2 server serves its one database to whoever knows the password, and nothing else. */
class EmbeddedH2ServerTest {

    @TempDir
    Path dir;

    @Test
    void otherUsersCanNeitherCreateADatabaseNorOpenTheShopsWithoutItsPassword() throws Exception {
        try (EmbeddedH2Server h2 = EmbeddedH2Server.start(dir.resolve("h2"))) {
            ShopDatabase shop = h2.database();
            String server = "jdbc:h2:tcp://127.0.0.1:" + h2.port() + "/./";

            assertThatThrownBy(() -> DriverManager.getConnection(server + "theirs", "sa", "").close())
                    .as("a database of their own, where CREATE ALIAS would run their code in this process")
                    .isInstanceOf(SQLException.class);
            assertThatThrownBy(() -> DriverManager.getConnection(shop.url(), "sa", "").close())
                    .isInstanceOf(SQLException.class);
            try (Connection nodes = DriverManager.getConnection(shop.url(), shop.user(), shop.password().orElseThrow())) {
                assertThat(nodes.isValid(5)).isTrue();
            }
        }
        assertThat(Files.getPosixFilePermissions(dir.resolve("h2"))).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        assertThat(Files.getPosixFilePermissions(dir.resolve("h2/.password")))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void aRestartKeepsTheDataAndTheDatabaseOfAnEarlierLauncherGetsAPassword() throws Exception {
        Path h2Dir = Files.createDirectories(dir.resolve("h2"));
        try (Connection legacy = DriverManager.getConnection("jdbc:h2:file:" + h2Dir.resolve("jpetstore"), "sa", "");
             Statement statement = legacy.createStatement()) {
            statement.execute("CREATE TABLE kept (id INT)"); // made by a launcher that gave sa no password
            statement.execute("INSERT INTO kept VALUES (42)");
        }

        for (int start = 0; start < 2; start++) {
            try (EmbeddedH2Server h2 = EmbeddedH2Server.start(h2Dir)) {
                ShopDatabase shop = h2.database();
                try (Connection nodes = DriverManager.getConnection(shop.url(), shop.user(), shop.password().orElseThrow());
                     Statement statement = nodes.createStatement();
                     var rows = statement.executeQuery("SELECT id FROM kept")) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getInt(1)).isEqualTo(42);
                }
                assertThatThrownBy(() -> DriverManager.getConnection(shop.url(), "sa", "").close())
                        .isInstanceOf(SQLException.class);
            }
        }
    }
}
