package io.cohort.jpetstore.data;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SchemaTest {
    @Test
    void everyStatementCanRunAgainOnAnExistingSchema() {
        assertThat(Schema.statements()).hasSize(14).allSatisfy(sql -> assertThat(sql).containsAnyOf(
                "CREATE TABLE IF NOT EXISTS", "CREATE INDEX IF NOT EXISTS", "CREATE UNIQUE INDEX IF NOT EXISTS",
                "ADD COLUMN IF NOT EXISTS"));
    }

    @Test
    void aColumnAddedToAnExistingTableIsNullableForTheRowsAlreadyThere() {
        assertThat(Schema.statements()).filteredOn(sql -> sql.contains("ADD COLUMN")).isNotEmpty()
                .allSatisfy(sql -> assertThat(sql).doesNotContain("NOT NULL"));
    }
}
