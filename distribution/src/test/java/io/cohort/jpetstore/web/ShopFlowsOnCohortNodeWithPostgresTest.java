package io.cohort.jpetstore.web;

import io.cohort.jpetstore.testing.PostgresDatabase;
import io.cohort.jpetstore.testing.ShopHost;
import io.cohort.jpetstore.testing.TestDatabase;
import java.nio.file.Files;

/**
 * Every page flow of the shop on a Cohort node whose data source is PostgreSQL (Testcontainers
 * where a Docker engine runs, else the local server at 127.0.0.1:5432; fails, never skips, without
 * either).
 */
class ShopFlowsOnCohortNodeWithPostgresTest extends AbstractShopFlowsTest {

    @Override
    protected TestDatabase openDatabase() {
        return PostgresDatabase.open();
    }

    @Override
    protected ShopHost startShop(TestDatabase database) throws Exception {
        return CohortNodeShop.start(database, Files.createTempDirectory("cohort-shop-pg"));
    }
}
