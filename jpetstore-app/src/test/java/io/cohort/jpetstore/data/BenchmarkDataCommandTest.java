package io.cohort.jpetstore.data;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.jpetstore.testing.H2Database;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The benchmark generator as a load driver sees it, run from its command line into H2 at a size that loads in a
 * few seconds (5,000 products, 500 accounts).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BenchmarkDataCommandTest {
    private static final int ACCOUNTS = 500;
    private static final int PRODUCTS = 5_000;

    private H2Database database;
    private String output;
    private int exitStatus;

    @BeforeAll
    void runTheCommand() {
        database = H2Database.open();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        exitStatus = BenchmarkDataCommand.run(
                new String[] {database.url(), "sa", "", String.valueOf(ACCOUNTS), String.valueOf(PRODUCTS)},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        output = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        System.out.println("BenchmarkDataCommand " + ACCOUNTS + " accounts, " + PRODUCTS + " products:\n" + output);
    }

    @AfterAll
    void closeDatabase() {
        database.close();
    }

    @Test
    void commandReportsAMeanOfAboutOneHundredProductsPerKeyword() {
        assertThat(exitStatus).as(output).isZero();
        Matcher mean = Pattern.compile("mean ([0-9.]+) products per keyword").matcher(output);
        assertThat(mean.find()).as(output).isTrue();
        assertThat(Double.parseDouble(mean.group(1))).isBetween(80.0, 120.0);
        assertThat(output).contains("Loaded the benchmark (500 accounts, 5000 products) data set");
    }

    @Test
    void searchesForRandomBenchmarkKeywordsFindAboutOneHundredProductsOnAverage() {
        ProductSearch search = new ProductSearch(database.dataSource());
        List<String> keywords = search.benchmarkKeywords();
        assertThat(keywords).hasSize(BenchmarkDataSet.vocabularySize(PRODUCTS));
        Random random = new Random(42);
        List<String> picks = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            picks.add(keywords.get(random.nextInt(keywords.size())));
        }
        SearchStatistics stats = SearchStatistics.measure(search, picks);
        System.out.println("300 random benchmark keyword searches: " + stats);
        assertThat(stats.mean()).isBetween(80.0, 120.0);
        assertThat(stats.min()).isPositive();
    }

    @Test
    void benchmarkAccountsSignOnWithThePublishedPassword() {
        AccountDao accounts = new AccountDao(database.dataSource());
        assertThat(accounts.authenticate("user0", "password")).isPresent();
        assertThat(accounts.authenticate("user" + (ACCOUNTS - 1), "password")).isPresent();
        assertThat(accounts.authenticate("user" + ACCOUNTS, "password")).isEmpty();
        assertThat(accounts.authenticate("j2ee", "j2ee")).as("the standard accounts are there too").isPresent();
    }

    @Test
    void benchmarkProductsHavePredictableIdsAndTwoItemsEach() {
        CatalogDao catalog = new CatalogDao(database.dataSource());
        assertThat(catalog.itemsOf("BP-7")).extracting(i -> i.id() + " " + i.attribute())
                .containsExactly("BI-13 Young", "BI-14 Adult");
        assertThat(catalog.product("BP-" + PRODUCTS)).isPresent();
        assertThat(catalog.product("BP-" + (PRODUCTS + 1))).isEmpty();
        assertThat(catalog.item("BI-13").orElseThrow().stock()).isEqualTo(BenchmarkDataSet.STOCK);
    }

    @Test
    void runningItAgainKeepsTheDataAndMeasuresIt() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = BenchmarkDataCommand.run(new String[] {database.url(), "sa", "", "10", "10"},
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        assertThat(status).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("already holds the benchmark data set")
                .contains("mean");
    }

    @Test
    void badArgumentsPrintTheUsage() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertThat(BenchmarkDataCommand.run(new String[] {"jdbc:h2:mem:x", "sa"}, System.out, errors)).isEqualTo(2);
        assertThat(BenchmarkDataCommand.run(new String[] {"jdbc:h2:mem:x", "sa", "", "ten", "5"}, System.out, errors))
                .isEqualTo(2);
        assertThat(BenchmarkDataCommand.run(new String[] {"jdbc:h2:mem:x", "sa", "", "10", "999999"}, System.out,
                errors)).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage: BenchmarkDataCommand")
                .contains("benchmark products must be 1..96000");
    }
}
