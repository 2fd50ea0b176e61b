package io.cohort.jpetstore.data;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SchemaTest {
    @Test
    void everyStatementCanRunAgainOnAnExistingSchema() {
        assertThat(Schema.statements()).hasSize(12).allSatisfy(sql ->
                assertThat(sql).containsAnyOf("CREATE TABLE IF NOT EXISTS", "CREATE INDEX IF NOT EXISTS"));
    }
}
