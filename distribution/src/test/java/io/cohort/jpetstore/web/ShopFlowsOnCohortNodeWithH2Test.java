package io.cohort.jpetstore.web;

import io.cohort.jpetstore.testing.H2Database;
import io.cohort.jpetstore.testing.ShopHost;
import io.cohort.jpetstore.testing.TestDatabase;
import java.nio.file.Files;

/** Every page flow of the shop, deployed as a WAR on a Cohort node whose data source is H2. */
class ShopFlowsOnCohortNodeWithH2Test extends AbstractShopFlowsTest {

    @Override
    protected TestDatabase openDatabase() {
        return H2Database.open();
    }

    @Override
    protected ShopHost startShop(TestDatabase database) throws Exception {
        return CohortNodeShop.start(database, Files.createTempDirectory("cohort-shop-h2"));
    }
}
