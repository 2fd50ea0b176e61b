package io.cohort.jpetstore.web;

import io.cohort.jpetstore.testing.PostgresDatabase;
import io.cohort.jpetstore.testing.TestDatabase;

class OrderResubmitOnPostgresTest extends AbstractOrderResubmitTest {
    @Override
    protected TestDatabase openDatabase() {
        return PostgresDatabase.open();
    }
}
