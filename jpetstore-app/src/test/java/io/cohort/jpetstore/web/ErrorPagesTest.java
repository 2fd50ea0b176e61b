package io.cohort.jpetstore.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.jpetstore.testing.H2Database;
import io.cohort.jpetstore.testing.ShopClient.Page;
import io.cohort.jpetstore.testing.ShopClient;
import io.cohort.jpetstore.testing.ShopServer;
import java.lang.reflect.Proxy;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** What a visitor sees when the server side fails: a plain page, never a stack trace. */
class ErrorPagesTest {
    @Test
    void shopWhoseDatabaseIsDownAnswersServiceUnavailable() throws Exception {
        try (ShopServer server = ShopServer.start(unreachableDatabase())) {
            Page page = new ShopClient(server).get("/");
            assertThat(page.status()).isEqualTo(503);
            assertThat(page.textOf("error-detail")).isEqualTo("The shop is not available at the moment. Please try again in a minute.");
            assertNoInternals(page);
        }
    }

    @Test
    void failingQueryShowsTheGenericErrorPage() throws Exception {
        try (H2Database database = H2Database.open(); ShopServer server = ShopServer.start(database.dataSource())) {
            ShopClient visitor = new ShopClient(server);
            assertThat(visitor.get("/keywords.txt").status()).isEqualTo(200);
            database.execute("DROP TABLE benchmark_keyword");
            Page page = visitor.get("/keywords.txt");
            assertThat(page.status()).isEqualTo(500);
            assertThat(page.textOf("error-detail")).contains("the shop could not handle that request");
            assertNoInternals(page);
        }
    }

    private static void assertNoInternals(Page page) {
        assertThat(page.body()).doesNotContain("Exception").doesNotContain("SQL").doesNotContain("at io.cohort")
                .doesNotContainIgnoringCase("jetty");
    }

    private static DataSource unreachableDatabase() {
        return (DataSource) Proxy.newProxyInstance(ErrorPagesTest.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getConnection")) {
                        throw new SQLTransientConnectionException("database down (test)");
                    }
                    if (method.getName().equals("toString")) {
                        return "unreachable database";
                    }
                    throw new SQLException("not supported by the test DataSource: " + method.getName());
                });
    }
}
