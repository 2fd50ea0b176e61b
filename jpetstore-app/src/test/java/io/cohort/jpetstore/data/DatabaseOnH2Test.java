package io.cohort.jpetstore.data;

import io.cohort.jpetstore.testing.H2Database;
import io.cohort.jpetstore.testing.TestDatabase;

class DatabaseOnH2Test extends AbstractDatabaseTest {
    @Override
    protected TestDatabase openDatabase() {
        return H2Database.open();
    }
}
