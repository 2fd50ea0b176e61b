package io.cohort.bench.study.driver;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The closed-loop load driver: {@link DriverSettings#users()} virtual users on one non-blocking Jetty
 * {@link HttpClient}, started evenly over the first part of the warm-up, running the study's scenario until the
 * warm-up and the measurement window have passed. {@link #start} returns at once; {@link #awaitEnd} waits for the
 * window to end and every user to finish its page in flight (bounded by the page timeout), and returns the
 * statistics. {@link #close} stops everything at any moment.
 */
public final class LoadDriver implements AutoCloseable {

    /** How long an idle connection to a balancer is kept: shorter than the balancer's own default (30 s). */
    static final Duration IDLE_TIMEOUT = Duration.ofSeconds(20);

    /** The users start over at most this much of the warm-up, so they do not all sign on at once. */
    private static final Duration MAX_RAMP = Duration.ofSeconds(10);

    private final HttpClient http;
    private final ScheduledThreadPoolExecutor timer;
    private final DriverContext context;
    private final List<VirtualUser> users = new ArrayList<>();
    private final long end;

    private LoadDriver(HttpClient http, ScheduledThreadPoolExecutor timer, DriverContext context, long end) {
        this.http = http;
        this.timer = timer;
        this.context = context;
        this.end = end;
    }

    /**
     * Reads the shop's search keywords through the first balancer, then starts the users.
     *
     * @throws Exception if the HTTP client cannot start or the shop does not serve its keywords
     */
    public static LoadDriver start(DriverSettings settings, Duration warmup, Duration duration) throws Exception {
        return start(settings, warmup, duration, () -> true);
    }

    /**
     * As {@link #start(DriverSettings, Duration, Duration)}, with users that start a scenario only while
     * {@code admission} says yes (asked before every scenario); a scenario under way always runs to its end. Two
     * drivers with complementary admissions take turns loading two systems.
     */
    public static LoadDriver start(DriverSettings settings, Duration warmup, Duration duration,
            BooleanSupplier admission) throws Exception {
        HttpClient http = newClient(settings);
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(2, r -> {
            Thread thread = new Thread(r, "load-driver-timer");
            thread.setDaemon(true);
            return thread;
        });
        timer.setRemoveOnCancelPolicy(true);
        try {
            ShopVocabulary vocabulary = keywords(http, settings.shops().get(0), settings.pageTimeout());
            long origin = System.nanoTime() + warmup.toNanos();
            LoadStats stats = new LoadStats(origin, duration.toNanos());
            DriverContext context = new DriverContext(settings, http, timer, stats, vocabulary, admission);
            LoadDriver driver = new LoadDriver(http, timer, context, origin + duration.toNanos());
            driver.startUsers(warmup);
            timer.schedule(context::stop, Math.max(0, driver.end - System.nanoTime()), TimeUnit.NANOSECONDS);
            return driver;
        } catch (Exception e) {
            timer.shutdownNow();
            http.stop();
            throw e;
        }
    }

    private static HttpClient newClient(DriverSettings settings) throws Exception {
        QueuedThreadPool threads = new QueuedThreadPool(Math.max(16, Math.min(200, settings.users() / 4 + 8)));
        threads.setName("load-driver-http");
        threads.setDaemon(true);
        HttpClient http = new HttpClient();
        http.setExecutor(threads);
        http.setHttpCookieStore(new HttpCookieStore.Empty()); // every virtual user keeps its own cookies
        http.setFollowRedirects(false);
        http.setConnectTimeout(5_000);
        // the driver closes an idle connection before the balancer does (idle-timeout 30 s by default): a request sent
        // on a connection the server is closing fails with EOF, and a POST cannot be retried
        http.setIdleTimeout(IDLE_TIMEOUT.toMillis());
        http.setMaxConnectionsPerDestination(settings.users() + 16);
        http.setMaxRequestsQueuedPerDestination(Math.max(1024, settings.users() * 4));
        http.setUserAgentField(null);
        http.start();
        return http;
    }

    private static ShopVocabulary keywords(HttpClient http, URI shop, Duration timeout) throws Exception {
        URI uri = URI.create(shop + "/keywords.txt");
        ContentResponse response = http.newRequest(uri).timeout(timeout.toMillis(), TimeUnit.MILLISECONDS).send();
        if (response.getStatus() != 200) {
            throw new IllegalStateException(uri + " answered " + response.getStatus()
                    + "; the driver needs the shop with the benchmark data set");
        }
        return ShopVocabulary.parse(response.getContentAsString());
    }

    /**
     * Walks the whole scenario once through every shop address, one visitor each, without think time, so that
     * every node has served every page once (compiled its JSPs, loaded its classes) before anything is measured.
     * Nothing is recorded.
     *
     * @return why a visit failed, one entry per failed shop (empty when all went through)
     */
    public static List<String> warmUp(List<URI> shops, int accounts, Duration timeout) throws Exception {
        DriverSettings settings = new DriverSettings(shops, shops.size(), Duration.ZERO, Duration.ZERO, accounts,
                timeout, 1);
        HttpClient http = newClient(settings);
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread thread = new Thread(r, "load-driver-warm-up");
            thread.setDaemon(true);
            return thread;
        });
        try {
            ShopVocabulary vocabulary = keywords(http, shops.get(0), timeout);
            DriverContext context = new DriverContext(settings, http, timer,
                    new LoadStats(System.nanoTime(), 0), vocabulary);
            List<CompletableFuture<String>> visits = new ArrayList<>();
            for (int k = 0; k < shops.size(); k++) {
                Random random = new Random(k);
                URI shop = shops.get(k);
                visits.add(new ShopScenario(new ShopBrowser(context, shop, random), random, context).run()
                        .handle((done, failure) -> failure == null ? null : shop + ": " + failure.getMessage()));
            }
            List<String> failures = new ArrayList<>();
            for (CompletableFuture<String> visit : visits) {
                String failure;
                try {
                    failure = visit.get(timeout.toMillis() * 2, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    failure = "the warm-up visit did not finish in time";
                }
                if (failure != null) {
                    failures.add(failure);
                }
            }
            return failures;
        } finally {
            timer.shutdownNow();
            http.stop();
        }
    }

    private void startUsers(Duration warmup) {
        DriverSettings settings = context.settings;
        long ramp = Math.min(MAX_RAMP.toNanos(), warmup.toNanos() / 2);
        for (int k = 0; k < settings.users(); k++) {
            Random random = new Random(settings.seed() * 1_000_003L + k);
            URI shop = settings.shops().get(k % settings.shops().size());
            VirtualUser user = new VirtualUser(context, new ShopBrowser(context, shop, random), random);
            users.add(user);
            timer.schedule(user::start, ramp * k / settings.users(), TimeUnit.NANOSECONDS);
        }
    }

    /** The statistics so far (for a progress display). */
    public LoadStats stats() {
        return context.stats;
    }

    /**
     * Waits until the measurement window has ended and every user has stopped (each finishes its page in flight,
     * at most a page timeout more), then stops the HTTP client.
     */
    public LoadStats awaitEnd() throws InterruptedException {
        long wait = end - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
        context.stop();
        CompletableFuture<?>[] finished = users.stream().map(VirtualUser::finished).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(finished).get(context.settings.pageTimeout().toMillis() + 5_000,
                    TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // a user still waiting for a response is cut off by close()
        }
        close();
        return context.stats;
    }

    /** Stops the users and the HTTP client; pages in flight fail. Idempotent. */
    @Override
    public void close() {
        context.stop();
        timer.shutdownNow();
        try {
            http.stop();
        } catch (Exception e) {
            // stopping a client that failed to stop cleanly: nothing more to do
        }
    }
}
