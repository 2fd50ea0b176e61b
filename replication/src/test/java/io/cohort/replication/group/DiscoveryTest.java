package io.cohort.replication.group;

import io.cohort.config.DataSourceConfig;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Members find each other without a static member list. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DiscoveryTest {

    @Test
    void membersFindEachOtherThroughADiscoveryTable() throws Exception {
        DataSourceConfig table = new DataSourceConfig("jdbc/discovery",
                "jdbc:h2:mem:discovery-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", Optional.of("sa"), Optional.empty(),
                2, Duration.ofSeconds(5));
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults())) {
            TestMember a = group.startWithJdbcDiscovery(0, "a", table);
            TestMember b = group.startWithJdbcDiscovery(1, "b", table);

            TestGroup.awaitMembers(List.of(a, b));
        }
    }
}
