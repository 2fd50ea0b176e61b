package io.cohort.jpetstore.web;

import io.cohort.jpetstore.testing.H2Database;
import io.cohort.jpetstore.testing.TestDatabase;

class ShopFlowsOnH2Test extends AbstractShopFlowsTest {
    @Override
    protected TestDatabase openDatabase() {
        return H2Database.open();
    }
}
