package io.cohort.cli.manage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.cohort.cli.CommandFailure;
import io.cohort.cli.ExitCode;
import org.junit.jupiter.api.Test;

/** The admin token as the commands read it from the environment: as the node reads the same variable. */
class TargetOptionsTest {

    @Test
    void aTokenLosesItsTrailingLineEndsAsTheNodesDoes() {
        assertThat(TargetOptions.token("s3cr3t-token\n", "COHORT_ADMIN_TOKEN")).isEqualTo("s3cr3t-token");
        assertThat(TargetOptions.token("s3cr3t-token\r\n", "COHORT_ADMIN_TOKEN")).isEqualTo("s3cr3t-token");
        assertThat(TargetOptions.token("  \n", "COHORT_ADMIN_TOKEN")).as("blank: no token").isEmpty();
    }

    @Test
    void aTokenNoHeaderCanCarryIsAUsageErrorThatDoesNotShowIt() {
        for (String token : new String[] {" s3cr3t-token", "s3cr3t-token ", "s3cr3t\u0001token"}) {
            CommandFailure failure = catchThrowableOfType(CommandFailure.class,
                    () -> TargetOptions.token(token, "COHORT_ADMIN_TOKEN"));

            assertThat(failure.exitCode()).isEqualTo(ExitCode.USAGE);
            assertThat(failure.getMessage()).contains("COHORT_ADMIN_TOKEN").doesNotContain("s3cr3t");
        }
    }
}
