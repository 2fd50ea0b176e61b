package io.cohort.jpetstore.data;

import java.sql.Connection;
import java.sql.SQLException;

/** Writes the chosen data set on a connection, inside the caller's transaction. */
final class DataSetLoader {
    private DataSetLoader() {
    }

    static void load(DataSetChoice choice, Connection connection) throws SQLException {
        try (CatalogWriter writer = new CatalogWriter(connection)) {
            StandardDataSet standard = StandardDataSet.read();
            standard.writeTo(writer);
            if (choice.kind() == DataSetChoice.Kind.BENCHMARK) {
                new BenchmarkDataSet(choice.accounts(), choice.products()).writeTo(writer);
            } else {
                for (String keyword : standard.productNameKeywords()) {
                    writer.benchmarkKeyword(keyword);
                }
            }
        }
    }
}
