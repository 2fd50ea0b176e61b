package io.cohort.jpetstore.data;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;

/**
 * Command line: creates the schema and loads the benchmark data set into a database, then measures the
 * search result counts of every benchmark keyword and prints them.
 *
 * <pre>
 * java -cp jpetstore-app/target/classes:&lt;JDBC driver jar&gt; io.cohort.jpetstore.data.BenchmarkDataCommand \
 *      &lt;jdbc-url&gt; &lt;user&gt; &lt;password&gt; &lt;accounts&gt; &lt;products&gt;
 * </pre>
 *
 * A database that already holds a data set is left as it is and only measured. Exit status 0 on success,
 * 2 for bad arguments, 1 if the database work failed.
 */
public final class BenchmarkDataCommand {
    private BenchmarkDataCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** The command without {@code System.exit}, for tests. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        DataSetChoice choice;
        try {
            if (args.length != 5) {
                throw new IllegalArgumentException("expected 5 arguments, got " + args.length);
            }
            choice = DataSetChoice.benchmark(Integer.parseInt(args[3]), Integer.parseInt(args[4]));
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            err.println("usage: BenchmarkDataCommand <jdbc-url> <user> <password> <accounts> <products>");
            return 2;
        }
        DataSource dataSource = new DriverManagerDataSource(args[0], args[1], args[2]);
        try {
            long started = System.nanoTime();
            LoadedDataSet loaded = new DatabaseInitializer(dataSource, choice).ensureLoaded();
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            out.println(loaded.loadedHere()
                    ? "Loaded the " + choice + " data set in " + took.toMillis() + " ms."
                    : "The database already holds the " + loaded + "; it was left as it is.");
            ProductSearch search = new ProductSearch(dataSource);
            List<String> keywords = search.benchmarkKeywords();
            out.println("Benchmark keywords: " + keywords.size() + " (served at /keywords.txt).");
            out.println("Search: " + SearchStatistics.measure(search, keywords) + ".");
            return 0;
        } catch (RuntimeException e) {
            err.println("error: " + e.getMessage() + (e.getCause() == null ? "" : " (" + e.getCause().getMessage() + ")"));
            return 1;
        }
    }
}
