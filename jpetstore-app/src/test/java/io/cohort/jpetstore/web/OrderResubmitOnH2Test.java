package io.cohort.jpetstore.web;

import io.cohort.jpetstore.testing.H2Database;
import io.cohort.jpetstore.testing.TestDatabase;

class OrderResubmitOnH2Test extends AbstractOrderResubmitTest {
    @Override
    protected TestDatabase openDatabase() {
        return H2Database.open();
    }
}
