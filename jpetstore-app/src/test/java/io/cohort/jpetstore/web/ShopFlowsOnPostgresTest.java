package io.cohort.jpetstore.web;

import io.cohort.jpetstore.testing.PostgresDatabase;
import io.cohort.jpetstore.testing.TestDatabase;

class ShopFlowsOnPostgresTest extends AbstractShopFlowsTest {
    @Override
    protected TestDatabase openDatabase() {
        return PostgresDatabase.open();
    }
}
