package io.cohort.jpetstore.data;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * Refreshes the planner's statistics after a bulk load, so that the very first searches use the keyword index
 * (on PostgreSQL, before autovacuum gets to it, a fresh 50,000-product table is planned as a sequential scan:
 * about 30 ms per search instead of under 2 ms). The statement is not standard SQL, so it is chosen per
 * database; others are left alone. Best effort: a failure is logged, not thrown.
 */
final class TableStatistics {
    private static final System.Logger LOG = System.getLogger(TableStatistics.class.getName());

    private TableStatistics() {
    }

    static void refresh(DataSource dataSource) {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            String product = c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
            if (product.contains("postgresql")) {
                st.execute("ANALYZE category, product, item, product_keyword, benchmark_keyword, account");
            } else if (product.contains("h2")) {
                st.execute("ANALYZE");
            }
        } catch (SQLException e) {
            LOG.log(Level.WARNING, "could not refresh table statistics after loading; searches may be slow until"
                    + " the database does it itself", e);
        }
    }
}
