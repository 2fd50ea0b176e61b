package io.cohort.jpetstore.data;

import io.cohort.jpetstore.testing.PostgresDatabase;
import io.cohort.jpetstore.testing.TestDatabase;

class DatabaseOnPostgresTest extends AbstractDatabaseTest {
    @Override
    protected TestDatabase openDatabase() {
        return PostgresDatabase.open();
    }
}
