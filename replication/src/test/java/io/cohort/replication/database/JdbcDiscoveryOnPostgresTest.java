package io.cohort.replication.database;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.DataSourceConfig;
import io.cohort.replication.group.TestGroup;
import io.cohort.replication.group.TestMember;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Peer members find each other through a table in a shared PostgreSQL (JGroups JDBC_PING2), as
 * hosts without multicast and without a DNS name for the group do.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JdbcDiscoveryOnPostgresTest {

    @Test
    void membersFindEachOtherThroughADiscoveryTableInPostgres() throws Exception {
        try (PostgresDatabase database = PostgresDatabase.open();
                TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults())) {
            DataSourceConfig table = new DataSourceConfig("jdbc/discovery", database.jdbcUrl(), database.user(),
                    database.password().map(p -> new io.cohort.config.Secret(p, "test password")), 2, Duration.ofSeconds(5));
            TestMember a = group.startWithJdbcDiscovery(0, "a", table);
            TestMember b = group.startWithJdbcDiscovery(1, "b", table);
            TestMember c = group.startWithJdbcDiscovery(2, "c", table);

            TestGroup.awaitMembers(List.of(a, b, c));

            List<String> registered = new ArrayList<>();
            try (Connection connection = DriverManager.getConnection(database.jdbcUrl(), database.user().orElseThrow(),
                    database.password().orElse(""));
                    ResultSet rows = connection.createStatement().executeQuery("SELECT name FROM jgroups")) {
                while (rows.next()) {
                    registered.add(rows.getString(1));
                }
            }
            assertThat(registered).as("each member wrote itself into the table").contains("a", "b", "c");
        }
    }
}
