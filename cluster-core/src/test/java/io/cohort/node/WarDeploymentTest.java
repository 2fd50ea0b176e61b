package io.cohort.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.cohort.node.deploy.ApplicationName;
import io.cohort.node.deploy.DeploymentException;
import io.cohort.node.deploy.WarDirectoryWatcher;
import io.cohort.testapp.TestWars;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WarDeploymentTest {

    /** More connections than Java's default listen backlog (50) holds. */
    private static final int BURST = 200;

    @TempDir
    Path home;
    TestNode node;

    @BeforeEach
    void startNodeWithTwoApps() throws Exception {
        Files.createDirectories(home.resolve("webapps"));
        TestWars.write(home.resolve("webapps/app.war"), "v1", true);
        TestWars.write(home.resolve("webapps/other.war"), "other-v1", true);
        node = TestNode.start(home, "n1", "");
    }

    @AfterEach
    void stopNode() {
        node.close();
    }

    @Test
    void warWithServletAndJspIsServed() throws Exception {
        assertThat(node.get(node.app("/app/version")).body()).isEqualTo("v1");
        HttpResponse<String> jsp = node.get(node.app("/app/index.jsp"));
        assertThat(jsp.statusCode()).isEqualTo(200);
        assertThat(jsp.body()).contains("jsp-1 jsp-2 jsp-3").contains("version v1");
    }

    @Test
    void applicationsGetTheCachingClassLoaderSoFailedElClassLookupsAreRemembered() throws Exception {
        assertThat(node.get(node.app("/app/loader")).body())
                .isEqualTo("io.cohort.node.deploy.ApplicationClassLoader");
        // an EL identifier that no scope holds is looked up as a class on every render; it still renders empty
        for (int i = 0; i < 3; i++) {
            assertThat(node.get(node.app("/app/index.jsp")).body()).endsWith("version v1");
        }
    }

    @Test
    void replacedWarIsRedeployedWithoutFailingRequestsOfOtherApps() throws Exception {
        AtomicBoolean swapping = new AtomicBoolean(true);
        AtomicInteger served = new AtomicInteger();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        Thread load = new Thread(() -> {
            Instant deadline = Instant.now().plusSeconds(60);
            while (swapping.get() && Instant.now().isBefore(deadline)) {
                try {
                    HttpResponse<String> response = node.get(node.app("/other/version"));
                    if (response.statusCode() == 200 && response.body().equals("other-v1")) {
                        served.incrementAndGet();
                    } else {
                        failures.add(response.statusCode() + " " + response.body());
                    }
                } catch (Exception e) {
                    failures.add(e.toString());
                }
            }
        });
        load.start();
        try {
            TestWars.write(node.webapps().resolve("app.war"), "v2", true);
            awaitBody("/app/version", body -> body.equals("v2"));
            Files.delete(node.webapps().resolve("app.war"));
            awaitStatus("/app/version", 404);
        } finally {
            swapping.set(false);
            load.join(10_000);
        }
        assertThat(failures).isEmpty();
        assertThat(served.get()).isGreaterThan(10);
        assertThat(node.get(node.app("/other/version")).body()).isEqualTo("other-v1");
    }

    @Test
    void aVersionThatFailsToStartIsStoppedWholeWhileTheOldVersionServesOn() throws Exception {
        String broken = "v2-broken-" + System.nanoTime();
        Path war = Files.createDirectories(home.resolve("build")).resolve("app.war");
        TestWars.write(war, broken, true, true);
        Instant serving = node.node.deployer().application(new ApplicationName("app")).orElseThrow().deployedAt();

        assertThatThrownBy(() -> node.node.deployer().deploy(war)).isInstanceOf(DeploymentException.class)
                .hasMessageContaining("app did not start");

        assertThat(System.getProperty("cohort.test." + broken + ".initialized")).as("its listener ran").isEqualTo("true");
        assertThat(System.getProperty("cohort.test." + broken + ".destroyed")).as("and it was stopped").isEqualTo("true");
        assertThat(node.get(node.app("/app/version")).body()).isEqualTo("v1");
        assertThat(node.node.deployer().application(new ApplicationName("app")).orElseThrow().deployedAt())
                .as("the old version is still the one deployed").isEqualTo(serving);
    }

    @Test
    void aDeployThatComesAfterTheApplicationsWereStoppedIsRefusedAndStartsNothing() throws Exception {
        Path war = Files.createDirectories(home.resolve("build")).resolve("late.war");
        TestWars.write(war, "late-v1", true);
        node.node.deployer().stopAll(); // the node's stop took its applications down

        assertThatThrownBy(() -> node.node.deployer().deploy(war)).isInstanceOf(DeploymentException.class)
                .hasMessageContaining("the node is stopping");
        assertThat(node.node.deployer().applications()).isEmpty();
    }

    @Test
    void anExplodedApplicationIsNotDeployedAndTheNodeSaysSoAtStart() throws Exception {
        Path other = home.resolve("other-node");
        Files.createDirectories(other.resolve("webapps/hello/WEB-INF"));
        Files.writeString(other.resolve("webapps/hello/index.html"), "hello");
        Logger watcherLog = (Logger) LoggerFactory.getLogger(WarDirectoryWatcher.class);
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        watcherLog.addAppender(log);
        try (TestNode second = TestNode.start(other, "n2", "")) {
            assertThat(second.get(second.app("/hello/index.html")).statusCode()).isEqualTo(404);
            assertThat(log.list).anySatisfy(event -> {
                assertThat(event.getLevel()).isEqualTo(Level.WARN);
                assertThat(event.getFormattedMessage()).contains("hello is a directory: only WAR files are deployed");
            });
        } finally {
            watcherLog.detachAppender(log);
        }
    }

    @Test
    void aWarCopiedInWhileTheNodeStartsIsDeployed(@TempDir Path otherHome) throws Exception {
        String version = "gated-" + System.nanoTime();
        Files.createDirectories(otherHome.resolve("webapps"));
        TestWars.writeGated(otherHome.resolve("webapps/first.war"), version);
        java.util.concurrent.CompletableFuture<TestNode> starting = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return TestNode.start(otherHome, "n2", "");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        TestNode other = null;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.getProperty("cohort.test." + version + ".starting") == null && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            // the node is deploying the WARs it found; another one arrives meanwhile
            TestWars.write(otherHome.resolve("webapps/second.war"), "second-v1", true);
            System.setProperty("cohort.test." + version + ".proceed", "true");
            other = starting.get(30, TimeUnit.SECONDS);

            TestNode started = other;
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (started.get(started.app("/second/version")).statusCode() != 200 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(started.get(started.app("/second/version")).body()).isEqualTo("second-v1");
        } finally {
            System.setProperty("cohort.test." + version + ".proceed", "true");
            if (other != null) {
                other.close();
            }
        }
    }

    @Test
    void aRequestThatArrivesWhileTheNodeDeploysWaitsForTheApplicationInsteadOfGetting404(@TempDir Path otherHome)
            throws Exception {
        String version = "gated-" + System.nanoTime();
        Files.createDirectories(otherHome.resolve("webapps"));
        TestWars.writeGated(otherHome.resolve("webapps/first.war"), version);
        int port = freePort();
        java.util.concurrent.CompletableFuture<TestNode> starting = startGated(otherHome, version, port, freePort());
        TestNode other = null;
        try {
            // the node is deploying first.war; a client (or a proxy that checked only the port) sends a request now
            java.util.concurrent.CompletableFuture<HttpResponse<String>> early = node.http.sendAsync(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/first/version"))
                            .timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            Thread.sleep(1000);
            assertThat(early).as("answered while the application was still deploying").isNotDone();

            System.setProperty("cohort.test." + version + ".proceed", "true");
            other = starting.get(30, TimeUnit.SECONDS);
            HttpResponse<String> answer = early.get(30, TimeUnit.SECONDS);
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.body()).isEqualTo(version);
        } finally {
            System.setProperty("cohort.test." + version + ".proceed", "true");
            if (other == null) {
                other = starting.get(30, TimeUnit.SECONDS);
            }
            other.close();
        }
    }

    /**
     * While the node deploys, its HTTP port is bound but accepts nothing, so every connection made meanwhile waits in
     * the port's accept queue: a burst (a balancer reconnecting after a failover, a load test) must fit in it. Linux
     * drops the SYN of a connection that does not fit, and its connect times out.
     */
    @Test
    void aBurstOfConnectionsWhileTheNodeDeploysWaitsInTheAcceptQueueAndIsServed(@TempDir Path otherHome) throws Exception {
        assumeKernelQueuesAtLeast(BURST);
        String version = "gated-" + System.nanoTime();
        Files.createDirectories(otherHome.resolve("webapps"));
        TestWars.writeGated(otherHome.resolve("webapps/first.war"), version);
        int port = freePort();
        java.util.concurrent.CompletableFuture<TestNode> starting = startGated(otherHome, version, port, freePort());
        TestNode other = null;
        List<Socket> burst = new ArrayList<>();
        try {
            for (int i = 0; i < BURST; i++) {
                Socket socket = new Socket();
                burst.add(socket);
                try {
                    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2_000);
                } catch (SocketTimeoutException dropped) {
                    throw new AssertionError("connection " + (i + 1) + " of " + BURST + " to the deploying node timed out: "
                            + "its accept queue was full and the kernel dropped the SYN", dropped);
                }
                socket.getOutputStream().write("GET /first/version HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
            }

            System.setProperty("cohort.test." + version + ".proceed", "true");
            other = starting.get(30, TimeUnit.SECONDS);
            for (Socket socket : burst) {
                socket.setSoTimeout(10_000);
                String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                assertThat(answer).startsWith("HTTP/1.1 200 ").endsWith(version);
            }
        } finally {
            System.setProperty("cohort.test." + version + ".proceed", "true");
            for (Socket socket : burst) {
                socket.close();
            }
            if (other == null) {
                other = starting.get(30, TimeUnit.SECONDS);
            }
            other.close();
        }
    }

    /** Skips on a kernel that caps every listen queue below {@code connections} (e.g. Linux before 5.4: 128). */
    private static void assumeKernelQueuesAtLeast(int connections) throws java.io.IOException {
        Path somaxconn = Path.of("/proc/sys/net/core/somaxconn");
        assumeTrue(Files.isReadable(somaxconn), "a Linux kernel, whose full accept queue drops new connections");
        // in lines: a sysctl answers one read only, and Files.readString of a file of size 0 reads one byte first
        int cap = Integer.parseInt(Files.readAllLines(somaxconn).get(0).trim());
        assumeTrue(cap >= connections, "net.core.somaxconn is " + cap + ", below the " + connections + " connections of the burst");
    }

    @Test
    void aNodeStoppedWhileItDeploysFailsToStartAndNeverAcceptsOnItsHttpPort(@TempDir Path otherHome) throws Exception {
        String version = "gated-" + System.nanoTime();
        Files.createDirectories(otherHome.resolve("webapps"));
        TestWars.writeGated(otherHome.resolve("webapps/first.war"), version);
        int httpPort = freePort();
        int adminPort = freePort();
        java.util.concurrent.CompletableFuture<TestNode> starting = startGated(otherHome, version, httpPort, adminPort);
        try {
            HttpResponse<String> stop = node.send(java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create("http://127.0.0.1:" + adminPort + "/admin/stop"))
                    .header("Authorization", "Bearer " + TestNode.TOKEN).POST(java.net.http.HttpRequest.BodyPublishers.noBody()));
            assertThat(stop.statusCode()).isEqualTo(202);
            Thread.sleep(500); // the stop is under way (it waits for the application's start)
        } finally {
            System.setProperty("cohort.test." + version + ".proceed", "true");
        }

        assertThatThrownBy(() -> starting.get(30, TimeUnit.SECONDS)).hasStackTraceContaining("was stopped while it started");
        assertThatThrownBy(() -> new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), httpPort).close())
                .isInstanceOf(java.net.ConnectException.class);
    }

    @Test
    void aNodeStoppedWhileItJoinsItsClusterReleasesWhatItStartsAfterTheStop(@TempDir Path otherHome) throws Exception {
        java.util.concurrent.CountDownLatch joining = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch joined = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);
        SingleNodeStoreProvider slowToJoin = new SingleNodeStoreProvider() {
            @Override
            io.cohort.session.SessionStore newStore(String application) {
                throw new AssertionError("no application is deployed by a stopped node");
            }

            @Override
            public io.cohort.session.SessionStoreFactory start(io.cohort.config.CohortConfig config,
                    io.cohort.cluster.Member self, io.micrometer.core.instrument.MeterRegistry meters) {
                io.cohort.session.SessionStoreFactory factory = super.start(config, self, meters);
                joining.countDown();
                try {
                    joined.await(30, TimeUnit.SECONDS); // joining the cluster takes a while
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return new io.cohort.session.SessionStoreFactory() {
                    @Override
                    public io.cohort.session.SessionStore newStore(String application) {
                        return factory.newStore(application);
                    }

                    @Override
                    public io.cohort.cluster.ClusterView clusterView() {
                        return factory.clusterView();
                    }

                    @Override
                    public void close() {
                        closed.countDown();
                    }
                };
            }
        };
        Files.createDirectories(otherHome.resolve("webapps"));
        TestWars.write(otherHome.resolve("webapps/app.war"), "v1", true);
        int adminPort = freePort();
        java.util.concurrent.CompletableFuture<TestNode> starting = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return TestNode.startOnPorts(otherHome, "n2", freePort(), adminPort,
                        "<cluster name=\"slow\"><protocol><peer/></protocol></cluster>", java.util.List.of(slowToJoin));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            assertThat(joining.await(30, TimeUnit.SECONDS)).as("the node joins its cluster").isTrue();
            HttpResponse<String> stop = node.send(java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create("http://127.0.0.1:" + adminPort + "/admin/stop"))
                    .header("Authorization", "Bearer " + TestNode.TOKEN).POST(java.net.http.HttpRequest.BodyPublishers.noBody()));
            assertThat(stop.statusCode()).isEqualTo(202);
            Thread.sleep(500); // the stop has run (there was nothing of the cluster to stop yet)
        } finally {
            joined.countDown();
        }

        assertThatThrownBy(() -> starting.get(30, TimeUnit.SECONDS)).hasStackTraceContaining("was stopped while it started");
        assertThat(closed.await(10, TimeUnit.SECONDS)).as("the replication it joined after the stop was left").isTrue();
    }

    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return free.getLocalPort();
        }
    }

    /** Starts a node on the given ports whose WAR {@code version} ({@link TestWars#writeGated}) holds the start. */
    private static java.util.concurrent.CompletableFuture<TestNode> startGated(Path home, String version, int httpPort,
            int adminPort) throws InterruptedException {
        java.util.concurrent.CompletableFuture<TestNode> starting = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return TestNode.startOnPorts(home, "n2", httpPort, adminPort);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.getProperty("cohort.test." + version + ".starting") == null && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(System.getProperty("cohort.test." + version + ".starting")).as("the gated WAR started deploying").isNotNull();
        return starting;
    }

    @Test
    void anUploadLeftByANodeThatDiedDuringItIsRemovedAtTheNextStart() throws Exception {
        // the admin API writes an upload next to the WARs as .<name>-<random>.upload and renames it once it started
        Path leftOver = Files.writeString(home.resolve("webapps/.shop-4711.upload"), "half a WAR");
        node.close();

        node = TestNode.start(home, "n1", "");

        assertThat(leftOver).doesNotExist();
        assertThat(home.resolve("webapps/app.war")).exists();
    }

    @Test
    void droppedWarIsDeployedWhileRunning() throws Exception {
        TestWars.write(node.webapps().resolve("late.war"), "late-v1", false);
        awaitBody("/late/version", body -> body.equals("late-v1"));
    }

    @Test
    void sessionsSurviveARedeploy() throws Exception {
        HttpResponse<String> set = node.get(node.app("/app/session?set=cart&value=EST-1"));
        assertThat(set.body()).contains("cart=EST-1");
        String sessionCookie = set.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];

        TestWars.write(node.webapps().resolve("app.war"), "v2", true);
        awaitBody("/app/version", body -> body.equals("v2"));

        HttpResponse<String> after = sessionWithCookie(sessionCookie);
        assertThat(after.body()).contains("cart=EST-1");
        assertThat(after.headers().allValues("Set-Cookie")).as("no new session").noneMatch(c -> c.startsWith("JSESSIONID="));
    }

    /** Where a request names its session: each way Jetty's session handler accepts. */
    enum SessionNamedBy {
        COOKIE, COOKIE_NAME_IN_LOWER_CASE, PATH_PARAMETER_AFTER_ANOTHER
    }

    @ParameterizedTest
    @EnumSource(SessionNamedBy.class)
    void anIdleSessionRequestedWhileTheReplacedVersionStillDrainsIsHandedOverAtOnceNotReplaced(SessionNamedBy namedBy)
            throws Exception {
        String sessionCookie = sessionWithCart();
        // another user's request, running until the test releases it, keeps the old version draining after the swap
        Path release = home.resolve("release");
        var held = redeployWhileHeld("/app/slow?until=", release, null);
        HttpResponse<String> answer;
        try {
            Instant asked = Instant.now();
            answer = sessionNamedBy(namedBy, sessionCookie);
            // the old version drains until the held request ends or its drain timeout (graceful-stop, 5 s) passes
            assertThat(Duration.between(asked, Instant.now())).as("answered while the old version still drains")
                    .isLessThan(Duration.ofSeconds(4));
            assertThat(held).isNotDone();
        } finally {
            Files.createFile(release);
        }

        assertThat(answer.body()).contains("cart=EST-1");
        assertThat(answer.headers().allValues("Set-Cookie")).as("no new session").noneMatch(c -> c.startsWith("JSESSIONID="));
        assertThat(held.get(10, TimeUnit.SECONDS).body()).isEqualTo("released");
    }

    @Test
    void aSessionInUseByTheReplacedVersionIsHandedOverWhenThatRequestEnds() throws Exception {
        String sessionCookie = sessionWithCart();
        Path release = home.resolve("release");
        // the old version's request of this very session runs on after the swap, and changes the session as it ends
        var held = redeployWhileHeld("/app/slow?set=step&value=2&until=", release, sessionCookie);

        var during = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return sessionWithCookie(sessionCookie);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(300);
        assertThat(during).as("waits for the old version's request of the session").isNotDone();
        Files.createFile(release);

        HttpResponse<String> answer = during.get(20, TimeUnit.SECONDS);
        assertThat(answer.body()).contains("cart=EST-1").contains("step=2");
        assertThat(answer.headers().allValues("Set-Cookie")).as("no new session").noneMatch(c -> c.startsWith("JSESSIONID="));
        assertThat(held.get(10, TimeUnit.SECONDS).body()).isEqualTo("released");
    }

    @Test
    void aSignOnInTheReplacedVersionWhileARequestWaitsForItsSessionRenewsTheId() throws Exception {
        String sessionCookie = sessionWithCart();

        WaitedFor outcome = redeployWhileTheSessionsLastRequestRuns("changeId=1", sessionCookie);

        // the store may not have the id change before the old version's stop, which the waiting request waits for
        assertThat(outcome.waiting().body()).as("the old id names nothing any more").doesNotContain("cart=EST-1");
        assertThat(outcome.waiting().headers().allValues("Set-Cookie")).as("a new session")
                .anyMatch(c -> c.startsWith("JSESSIONID="));
        String newCookie = outcome.last().headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];
        assertThat(newCookie).isNotEqualTo(sessionCookie);
        assertThat(sessionWithCookie(newCookie).body()).as("the session under its new id").contains("cart=EST-1");
    }

    @Test
    void aSignOffInTheReplacedVersionWhileARequestWaitsForItsSessionEndsIt() throws Exception {
        String sessionCookie = sessionWithCart();

        WaitedFor outcome = redeployWhileTheSessionsLastRequestRuns("invalidate=1", sessionCookie);

        // the store may not have the removal before the old version's stop, which the waiting request waits for
        assertThat(outcome.waiting().body()).doesNotContain("cart=EST-1");
        assertThat(outcome.waiting().headers().allValues("Set-Cookie")).as("a new session")
                .anyMatch(c -> c.startsWith("JSESSIONID="));
        assertThat(outcome.last().body()).isEqualTo("released");
    }

    /** What a second tab's request of the new version got, and what the old version's last request answered. */
    private record WaitedFor(HttpResponse<String> waiting, HttpResponse<String> last) {
    }

    /**
     * The user's last request of the old version ({@code /app/slow?<action>}) holds the session while another user's
     * long request keeps the old version draining; the application is redeployed, a second tab asks the new version
     * for the session (it must wait), and then the last request ends.
     */
    private WaitedFor redeployWhileTheSessionsLastRequestRuns(String action, String sessionCookie) throws Exception {
        Path lastEnds = home.resolve("last-ends");
        Path otherEnds = home.resolve("other-ends");
        var last = node.http.sendAsync(java.net.http.HttpRequest.newBuilder(node.app("/app/slow?" + action + "&until="
                        + java.net.URLEncoder.encode(lastEnds.toString(), java.nio.charset.StandardCharsets.UTF_8)))
                .header("Cookie", sessionCookie).build(), HttpResponse.BodyHandlers.ofString());
        var other = node.http.sendAsync(java.net.http.HttpRequest.newBuilder(node.app("/app/slow?until="
                        + java.net.URLEncoder.encode(otherEnds.toString(), java.nio.charset.StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString());
        awaitActiveRequests(2);
        TestWars.write(node.webapps().resolve("app.war"), "v2", true);
        awaitBody("/app/version", body -> body.equals("v2"));
        WaitedFor outcome;
        try {
            var waiting = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return sessionWithCookie(sessionCookie);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(300);
            assertThat(waiting).as("waits for the old version's request of the session").isNotDone();
            Files.createFile(lastEnds);
            outcome = new WaitedFor(waiting.get(20, TimeUnit.SECONDS), last.get(10, TimeUnit.SECONDS));
        } finally {
            Files.createFile(otherEnds);
        }
        assertThat(other.get(10, TimeUnit.SECONDS).body()).isEqualTo("released");
        return outcome;
    }

    @Test
    void aSignOffInTheReplacedVersionWhileItDrainsDoesNotWaitForItsOwnHandover() throws Exception {
        String sessionCookie = sessionWithCart();
        Path release = home.resolve("release");
        // the invalidation reaches every version's sessions through the server's session id manager, the new one too
        var signOff = redeployWhileHeld("/app/slow?invalidate=1&until=", release, sessionCookie);

        Instant released = Instant.now();
        Files.createFile(release);
        assertThat(signOff.get(10, TimeUnit.SECONDS).body()).isEqualTo("released");
        assertThat(Duration.between(released, Instant.now())).as("the sign-off's own time, not the drain timeout")
                .isLessThan(Duration.ofSeconds(3));
        assertThat(sessionWithCookie(sessionCookie).body()).doesNotContain("cart=EST-1");
    }

    /** A new session holding {@code cart=EST-1}; returns its cookie ({@code JSESSIONID=…}). */
    private String sessionWithCart() throws Exception {
        HttpResponse<String> set = node.get(node.app("/app/session?set=cart&value=EST-1"));
        return set.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];
    }

    /**
     * Sends {@code slowPath} followed by {@code release} (a request the slow servlet holds until that file exists),
     * with {@code cookie} if not null, then redeploys the application while it is held; returns the held request.
     */
    private java.util.concurrent.CompletableFuture<HttpResponse<String>> redeployWhileHeld(String slowPath, Path release,
            String cookie) throws Exception {
        var request = java.net.http.HttpRequest.newBuilder(node.app(slowPath
                + java.net.URLEncoder.encode(release.toString(), java.nio.charset.StandardCharsets.UTF_8)));
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        var held = node.http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
        awaitActiveRequests(1);
        TestWars.write(node.webapps().resolve("app.war"), "v2", true);
        awaitBody("/app/version", body -> body.equals("v2"));
        return held;
    }

    private HttpResponse<String> sessionNamedBy(SessionNamedBy namedBy, String cookie) throws Exception {
        String id = cookie.substring("JSESSIONID=".length());
        var request = switch (namedBy) {
            case COOKIE -> java.net.http.HttpRequest.newBuilder(node.app("/app/session")).header("Cookie", cookie);
            case COOKIE_NAME_IN_LOWER_CASE -> java.net.http.HttpRequest.newBuilder(node.app("/app/session"))
                    .header("Cookie", "jsessionid=" + id);
            case PATH_PARAMETER_AFTER_ANOTHER -> java.net.http.HttpRequest.newBuilder(
                    node.app("/app/session;lang=en;jsessionid=" + id));
        };
        return java.net.http.HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> sessionWithCookie(String cookie) throws Exception {
        return java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(node.app("/app/session"))
                .header("Cookie", cookie).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void answersAndErrorPagesDoNotTellTheServersVersion() throws Exception {
        HttpResponse<String> served = node.get(node.app("/app/version"));
        HttpResponse<String> missing = node.get(node.app("/nothing-here"));

        assertThat(served.headers().firstValue("Server")).isEmpty();
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.headers().firstValue("Server")).isEmpty();
        assertThat(missing.body()).doesNotContainIgnoringCase("jetty");
    }

    @Test
    void sessionIdCarriesTheNodeRoute() throws Exception {
        HttpResponse<String> response = node.get(node.app("/app/session?set=a&value=1"));
        String cookie = response.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(cookie).matches("JSESSIONID=[^;.]+\\.n1;.*");
        assertThat(response.body()).startsWith("id=" + cookie.substring("JSESSIONID=".length(), cookie.indexOf('.')));
    }

    @Test
    void distributableAppRefusesNonSerializableAttributeAtSetAttribute() throws Exception {
        HttpResponse<String> response = node.get(node.app("/app/session?unserializable=thing"));
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("refused").contains("'thing'").contains("java.lang.Object")
                .contains("not Serializable");
    }

    @Test
    void distributableAppRefusesAnAttributeNameTooLongToReplicateAtSetAttribute() throws Exception {
        HttpResponse<String> response = node.get(node.app("/app/session?set=" + "a".repeat(1025) + "&value=1"));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("refused").contains("1025 characters, longer than 1024");
        assertThat(node.get(node.app("/app/session?set=" + "a".repeat(1024) + "&value=1")).statusCode()).isEqualTo(200);
    }

    @Test
    void gracefulStopLetsInFlightRequestsFinish() throws Exception {
        var slow = node.http.sendAsync(java.net.http.HttpRequest.newBuilder(node.app("/app/slow?ms=1500")).build(),
                HttpResponse.BodyHandlers.ofString());
        awaitActiveRequests(1);
        node.node.stop();
        HttpResponse<String> response = slow.get(10, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("slept 1500");
    }

    private void awaitActiveRequests(int count) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(10);
        while (Instant.now().isBefore(deadline)) {
            if (node.node.metrics().registry().get("cohort.http.requests.active").gauge().value() >= count) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no request became active");
    }

    private void awaitBody(String path, Predicate<String> expected) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        String last = null;
        while (Instant.now().isBefore(deadline)) {
            HttpResponse<String> response = node.get(node.app(path));
            last = response.statusCode() + " " + response.body();
            if (response.statusCode() == 200 && expected.test(response.body())) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("timed out waiting on " + path + "; last answer " + last);
    }

    private void awaitStatus(String path, int status) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (Instant.now().isBefore(deadline)) {
            if (node.get(node.app(path)).statusCode() == status) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("timed out waiting for " + status + " on " + path);
    }
}
