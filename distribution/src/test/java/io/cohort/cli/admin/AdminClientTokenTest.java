package io.cohort.cli.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A token the JDK refuses as a header value never reaches the output in the JDK's message, which quotes the value. */
class AdminClientTokenTest {

    @Test
    void aTokenNoHeaderCanCarryFailsWithoutShowingIt() {
        AdminClient client = new AdminClient(Duration.ofSeconds(1));

        Throwable failure = catchThrowable(() -> client.applications(URI.create("http://127.0.0.1:1"), "s3cr3t\ntoken").join());

        assertThat(failure).isInstanceOf(IllegalArgumentException.class);
        assertThat(failure.getMessage()).doesNotContain("s3cr3t");
    }
}
