package io.cohort.jpetstore.web;

import io.cohort.jpetstore.data.DataSetChoice;
import io.cohort.jpetstore.data.DatabaseInitializer;
import io.cohort.jpetstore.data.LoadedDataSet;
import io.cohort.jpetstore.data.ProductSearch;
import io.cohort.jpetstore.data.SearchStatistics;
import java.lang.System.Logger.Level;
import java.util.concurrent.Callable;
import javax.sql.DataSource;

/**
 * Brings the shop up on first use: looks the DataSource up, creates the schema and loads the chosen data set
 * (see {@link DatabaseInitializer}). Requests that arrive meanwhile wait; after a failure the next request
 * tries again, so a database that comes up late is picked up without a redeploy.
 */
final class ShopBootstrap {
    static final String CONTEXT_ATTRIBUTE = ShopBootstrap.class.getName();
    private static final System.Logger LOG = System.getLogger(ShopBootstrap.class.getName());

    private final Callable<DataSource> dataSourceLookup;
    private final DataSetChoice choice;
    private volatile Shop shop;

    ShopBootstrap(Callable<DataSource> dataSourceLookup, DataSetChoice choice) {
        this.dataSourceLookup = dataSourceLookup;
        this.choice = choice;
    }

    Shop shop() throws ShopUnavailableException {
        Shop ready = shop;
        return ready != null ? ready : start();
    }

    private synchronized Shop start() throws ShopUnavailableException {
        if (shop != null) {
            return shop;
        }
        DataSource dataSource;
        try {
            dataSource = dataSourceLookup.call();
        } catch (Exception e) {
            throw new ShopUnavailableException("no DataSource at " + ShopContextListener.DATASOURCE_JNDI_NAME, e);
        }
        try {
            LoadedDataSet loaded = new DatabaseInitializer(dataSource, choice).ensureLoaded();
            LOG.log(Level.INFO, "JPetStore ready with the {0}", loaded);
            if (loaded.loadedHere() && choice.kind() == DataSetChoice.Kind.BENCHMARK) {
                ProductSearch search = new ProductSearch(dataSource);
                LOG.log(Level.INFO, "benchmark search check: {0}",
                        SearchStatistics.measure(search, search.benchmarkKeywords()));
            }
        } catch (RuntimeException e) {
            throw new ShopUnavailableException("preparing the database failed", e);
        }
        shop = Shop.over(dataSource);
        return shop;
    }
}
