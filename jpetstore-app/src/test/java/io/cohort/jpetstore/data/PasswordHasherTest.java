package io.cohort.jpetstore.data;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PasswordHasherTest {
    @Test
    void hashMatchesOnlyItsPassword() {
        String hash = PasswordHasher.hash("s3cret", 1_000);
        assertThat(hash).startsWith("pbkdf2-sha256:1000:").doesNotContain("s3cret");
        assertThat(PasswordHasher.matches("s3cret", hash)).isTrue();
        assertThat(PasswordHasher.matches("S3cret", hash)).isFalse();
    }

    @Test
    void samePasswordGetsADifferentSaltEachTime() {
        assertThat(PasswordHasher.hash("same", 1_000)).isNotEqualTo(PasswordHasher.hash("same", 1_000));
    }

    @Test
    void malformedStoredHashesNeverMatch() {
        assertThat(PasswordHasher.matches("x", null)).isFalse();
        assertThat(PasswordHasher.matches("x", "x")).isFalse();
        assertThat(PasswordHasher.matches("x", "pbkdf2-sha256:abc:!!:!!")).isFalse();
        assertThat(PasswordHasher.matches("x", "md5:1:AA==:AA==")).isFalse();
    }
}
