package io.cohort.replication.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TransactionDeadlineTest {

    @Test
    void aQueryTimeoutIsWhatIsLeftRoundedUpToWholeSeconds() {
        TransactionDeadline deadline = TransactionDeadline.after(Duration.ofMillis(1_500));

        assertThat(deadline.querySeconds()).isEqualTo(2);
        assertThat(deadline.remainingMillis()).isBetween(1L, 1_500L);
        assertThat(deadline.passed()).isFalse();
    }

    @Test
    void theNetworkTimeoutOutlastsTheQueryTimeoutsSoASlowStatementIsCancelledFirst() {
        TransactionDeadline deadline = TransactionDeadline.after(Duration.ofSeconds(2));

        assertThat(deadline.networkTimeoutMillis())
                .isGreaterThan((int) deadline.remainingMillis())
                .isLessThanOrEqualTo((int) (2_000 + TransactionDeadline.NETWORK_GRACE.toMillis()));
    }

    @Test
    void aPassedDeadlineStillGivesJdbcAPositiveBound() throws InterruptedException {
        TransactionDeadline deadline = TransactionDeadline.after(Duration.ofMillis(1));
        Thread.sleep(5);

        assertThat(deadline.passed()).isTrue();
        assertThat(deadline.remainingMillis()).isEqualTo(1);
        assertThat(deadline.querySeconds()).isEqualTo(1); // JDBC reads 0 as "no timeout"
    }

    @Test
    void aBudgetMustBePositive() {
        assertThatThrownBy(() -> TransactionDeadline.after(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }
}
