package io.cohort.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.session.StoredSession;
import io.cohort.session.jetty.CohortSessionCache;
import io.cohort.session.serial.Gadget;
import io.cohort.testapp.TestWars;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.eclipse.jetty.session.ManagedSession;
import org.eclipse.jetty.util.thread.AutoLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node's side of failover: a node that receives a request for a session another node owned
 * loads it from the store, serves it with all attributes under the same id, and re-issues the cookie
 * with its own route; it tells balancers where copies are.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SessionTakeoverTest {

    private static final String CLUSTER = """
            <cluster name="takeover"><protocol><peer/></protocol></cluster>""";

    @TempDir
    Path dir1;
    @TempDir
    Path dir2;
    /** Sessions of which the stores name no copy holders (their members left, say). */
    final java.util.Set<String> withoutCopies = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Each session's copies are on "n2", its placement named after its id as well (placement follows the id). */
    final SharedMemoryStores stores = new SharedMemoryStores(id -> withoutCopies.contains(id) ? List.of()
            : List.of("n2", placementOf(id)));
    TestNode n1;
    TestNode n2;

    @BeforeEach
    void startTwoNodes() throws Exception {
        for (Path dir : List.of(dir1, dir2)) {
            Files.createDirectories(dir.resolve("webapps"));
            TestWars.write(dir.resolve("webapps/app.war"), "v1", true);
        }
        n1 = TestNode.start(dir1, "n1", CLUSTER, List.of(stores));
        n2 = TestNode.start(dir2, "n2", CLUSTER, List.of(stores));
    }

    @AfterEach
    void stopNodes() {
        n1.close();
        n2.close();
    }

    @Test
    void aRequestThatChangesNothingStillReachesTheStoreSoItsCopyKeepsUpWithTheLastAccess() throws Exception {
        HttpResponse<String> first = n1.get(n1.app("/app/session?set=cart&value=EST-1"));
        String sessionCookie = cookie(first, "JSESSIONID");
        String key = "app/" + sessionCookie.substring(0, sessionCookie.lastIndexOf('.'));
        java.time.Instant written = stores.copies.get(key).lastAccessed();

        Thread.sleep(20);
        withCookies(n1, n1.app("/app/session"), "JSESSIONID=" + sessionCookie); // reads only

        // the store hears of a request that changed nothing too (at its response commit)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!stores.copies.get(key).lastAccessed().isAfter(written) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(stores.copies.get(key).lastAccessed()).as("the store heard of the read").isAfter(written);
    }

    @Test
    void aRequestThatEndsWhileAnotherOfTheSessionRunsStillReachesTheStore(@TempDir Path signals) throws Exception {
        HttpResponse<String> first = n1.get(n1.app("/app/session?set=cart&value=EST-1"));
        String sessionCookie = cookie(first, "JSESSIONID");
        String key = "app/" + sessionCookie.substring(0, sessionCookie.lastIndexOf('.'));
        java.time.Instant written = stores.copies.get(key).lastAccessed();
        Path release = signals.resolve("release");
        var longPoll = n1.http.sendAsync(HttpRequest.newBuilder(n1.app("/app/slow?until=" + release))
                .header("Cookie", "JSESSIONID=" + sessionCookie).build(), HttpResponse.BodyHandlers.ofString());
        Thread.sleep(500); // the long poll holds the session

        withCookies(n1, n1.app("/app/session"), "JSESSIONID=" + sessionCookie); // reads only, while the poll runs

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!stores.copies.get(key).lastAccessed().isAfter(written) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(stores.copies.get(key).lastAccessed()).as("the store heard of the read before the poll ended")
                .isAfter(written);
        Files.createFile(release);
        assertThat(longPoll.get(10, TimeUnit.SECONDS).body()).isEqualTo("released");
    }

    @Test
    void aValueChangedInPlaceReachesTheStoreBeforeTheAnswerLeaves() throws Exception {
        HttpResponse<String> first = n1.get(n1.app("/app/session?append=list&value=a"));
        String sessionCookie = cookie(first, "JSESSIONID");
        String key = "app/" + sessionCookie.substring(0, sessionCookie.lastIndexOf('.'));
        CountDownLatch store = new CountDownLatch(1);
        stores.heldCompletions.put(key, store);

        var inPlace = n1.http.sendAsync(HttpRequest.newBuilder(n1.app("/app/session?append=list&value=b"))
                .header("Cookie", "JSESSIONID=" + sessionCookie).build(), HttpResponse.BodyHandlers.ofString());
        Thread.sleep(500);

        // a store that copies every attribute (allAttributes), or waits for acknowledgements (sync), must see the
        // request before its answer is committed, changed through setAttribute or not
        assertThat(inPlace.isDone()).as("the answer left before the store heard of the request").isFalse();
        store.countDown();
        assertThat(inPlace.get(10, TimeUnit.SECONDS).body()).contains("list=[a, b]");
    }

    @Test
    void eachRequestReachesTheStoreOnceWhetherItChangesTheSessionOrNot() throws Exception {
        HttpResponse<String> first = n1.get(n1.app("/app/session?append=list&value=a"));
        String sessionCookie = cookie(first, "JSESSIONID");
        String key = "app/" + sessionCookie.substring(0, sessionCookie.lastIndexOf('.'));
        int before = stores.completions.get(key).get();

        withCookies(n1, n1.app("/app/session"), "JSESSIONID=" + sessionCookie);
        withCookies(n1, n1.app("/app/session?append=list&value=b"), "JSESSIONID=" + sessionCookie);
        withCookies(n1, n1.app("/app/session?set=x&value=1"), "JSESSIONID=" + sessionCookie);
        withCookies(n1, n1.app("/app/session?set=y&value=1&afterCommit=z"), "JSESSIONID=" + sessionCookie);
        Thread.sleep(200); // a second call, were there one, comes when Jetty releases the session after the answer

        assertThat(stores.completions.get(key).get() - before).as("calls for 4 requests, one changing after its commit")
                .isEqualTo(5);
    }

    @Test
    void aChangeMadeAfterTheAnswerWasCommittedReachesTheStoreWhenTheRequestEndsThoughAnotherRequestHoldsTheSession(
            @TempDir Path signals) throws Exception {
        HttpResponse<String> first = n1.get(n1.app("/app/session?set=cart&value=EST-1"));
        String sessionCookie = cookie(first, "JSESSIONID");
        String key = "app/" + sessionCookie.substring(0, sessionCookie.lastIndexOf('.'));
        Path release = signals.resolve("release");
        var longPoll = n1.http.sendAsync(HttpRequest.newBuilder(n1.app("/app/slow?until=" + release))
                .header("Cookie", "JSESSIONID=" + sessionCookie).build(), HttpResponse.BodyHandlers.ofString());
        Thread.sleep(500); // the long poll holds the session

        withCookies(n1, n1.app("/app/session?set=x&value=1&afterCommit=y"), "JSESSIONID=" + sessionCookie);

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!stores.copies.get(key).attributes().containsKey("y") && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(stores.copies.get(key).attributes()).as("the copy before the poll ended").containsKeys("x", "y");
        Files.createFile(release);
        assertThat(longPoll.get(10, TimeUnit.SECONDS).body()).isEqualTo("released");
    }

    @Test
    void aSlowLookupOfOneSessionHoldsUpNoOtherSession() throws Exception {
        String sessionCookie = cookie(n1.get(n1.app("/app/session?set=cart&value=EST-1")), "JSESSIONID");
        String key = "app/" + idOf(sessionCookie);
        CountDownLatch lookup = new CountDownLatch(1);
        stores.heldLoads.put(key, lookup);
        var takeover = n2.http.sendAsync(HttpRequest.newBuilder(n2.app("/app/session"))
                .header("Cookie", "JSESSIONID=" + sessionCookie).timeout(Duration.ofSeconds(40)).build(),
                HttpResponse.BodyHandlers.ofString());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!stores.loads.contains(key) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(stores.loads).as("n2 is looking the session up").contains(key);

        // while that lookup waits, other users arrive at n2: enough new sessions that the session map grows
        List<CompletableFuture<HttpResponse<String>>> others;
        try {
            others = IntStream.range(0, 40)
                    .mapToObj(i -> n2.http.sendAsync(HttpRequest.newBuilder(n2.app("/app/session?set=a&value=" + i))
                            .timeout(Duration.ofSeconds(40)).build(), HttpResponse.BodyHandlers.ofString()))
                    .toList();
            assertThat(CompletableFuture.allOf(others.toArray(new CompletableFuture<?>[0])))
                    .as("new sessions served while another session's lookup waits")
                    .succeedsWithin(Duration.ofSeconds(15));
            assertThat(takeover).as("the lookup still waits").isNotDone();
        } finally {
            lookup.countDown();
        }

        assertThat(others).allSatisfy(response -> assertThat(response.join().statusCode()).isEqualTo(200));
        assertThat(takeover.get(10, TimeUnit.SECONDS).body()).contains("cart=EST-1");
    }

    @Test
    void aRequestThatFindsItsSessionEvictedUnderItLooksItUpAgain() throws Exception {
        String sessionCookie = cookie(n1.get(n1.app("/app/session?set=cart&value=EST-1")), "JSESSIONID");
        String id = idOf(sessionCookie);
        CohortSessionCache cache = n1.sessionCache("/app");
        ManagedSession session = cache.doGet(id);

        CompletableFuture<HttpResponse<String>> request;
        try (AutoLock ignored = lockOnceReleased(session)) {
            // the request has found the session in memory and waits for it; then another node takes it over. A new
            // connection: Jetty reads a connection's next request only once the last one's session is released
            request = java.net.http.HttpClient.newHttpClient().sendAsync(HttpRequest.newBuilder(n1.app("/app/session"))
                    .header("Cookie", "JSESSIONID=" + sessionCookie).timeout(Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.ofString());
            awaitThreadWaitingIn("getAndEnter");
            cache.evict(id);
        }

        assertThat(request.get(20, TimeUnit.SECONDS).body()).as("the session, looked up again")
                .contains("id=" + id, "cart=EST-1");
    }

    @Test
    void aCopyTheStoreFindsStaleIsLoadedAgainBeforeTheRequestUsesIt() throws Exception {
        String sessionCookie = cookie(n1.get(n1.app("/app/session?set=cart&value=EST-1")), "JSESSIONID");
        String id = idOf(sessionCookie);
        // another node took the session over and changed the cart, and n1 did not hear of it
        putInCopy(id, "cart", "EST-2", 1);
        stores.staleCopies.add("app/" + id);

        HttpResponse<String> atN1 = withCookies(n1, n1.app("/app/session"), "JSESSIONID=" + sessionCookie);

        assertThat(atN1.body()).contains("id=" + id, "cart=EST-2");
        assertThat(stores.staleCopies).as("asked before the request used the copy").isEmpty();
    }

    @Test
    void aSessionWhoseIdARequestChangedAfterAnotherNodeTookItOverStaysWhenItComesBackUnderItsOldId(
            @TempDir Path signals) throws Exception {
        String sessionCookie = cookie(n1.get(n1.app("/app/session?set=cart&value=EST-1")), "JSESSIONID");
        String id = idOf(sessionCookie);
        StoredSession underOldId = stores.copies.get("app/" + id);
        CohortSessionCache cache = n1.sessionCache("/app");
        awaitRequestsOf(cache.doGet(id), 0); // Jetty releases the session just after the answer
        Path release = signals.resolve("release");
        var signOn = n1.http.sendAsync(HttpRequest.newBuilder(n1.app("/app/slow?changeId=1&until=" + release))
                .header("Cookie", "JSESSIONID=" + sessionCookie).build(), HttpResponse.BodyHandlers.ofString());
        awaitRequestsOf(cache.doGet(id), 1);
        cache.evict(id); // another node takes the session over while the sign-on still runs here
        Files.createFile(release);
        assertThat(signOn.get(10, TimeUnit.SECONDS).body()).isEqualTo("released");
        awaitRequestsOf(cache.doGet(idOf(cookie(signOn.join(), "JSESSIONID"))), 0);

        // the other node went on with the session under its old id (the balancer gave up on the sign-on's answer), and
        // the session comes back to n1 later: n1 keeps it in memory after that request like any session it serves
        stores.copies.put("app/" + id, underOldId);
        assertThat(withCookies(n1, n1.app("/app/session"), "JSESSIONID=" + sessionCookie).body())
                .contains("id=" + id, "cart=EST-1");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (cache.doGet(id) != null && System.nanoTime() < deadline) {
            Thread.sleep(10); // Jetty releases the session just after the answer: an eviction would come then
        }

        assertThat(cache.doGet(id)).as("n1's session under its old id, after the request that brought it back").isNotNull();
    }

    @Test
    void anEvictionOfTheOldIdThatWaitedForARenewalLeavesTheSessionUnderItsNewIdAlone() throws Exception {
        String sessionCookie = cookie(n1.get(n1.app("/app/session?set=cart&value=EST-1")), "JSESSIONID");
        String id = idOf(sessionCookie);
        CohortSessionCache cache = n1.sessionCache("/app");
        ManagedSession session = cache.doGet(id);
        awaitRequestsOf(session, 0);
        String newId = id + "renewed";

        Thread eviction = new Thread(() -> cache.evict(id), "eviction of the old id");
        try (AutoLock ignored = lockOnceReleased(session)) {
            eviction.start(); // another node took the session over under the old id; its notice waits for the lock
            awaitThreadWaitingIn("evict");
            cache.release(cache.renewSessionId(id, newId, sessionCookie, newId + ".n1")); // a sign-on renews it first
        }
        eviction.join(10_000);

        assertThat(cache.doGet(newId)).as("the session under its new id").isSameAs(session);
        assertThat(session.isResident()).as("still in this node's memory").isTrue();
    }

    private static void awaitRequestsOf(ManagedSession session, int requests) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (session.getRequests() != requests && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(session.getRequests()).as("requests using %s", session.getId()).isEqualTo(requests);
    }

    /** The session's lock, taken once no request uses the session (Jetty releases it after the answer is sent). */
    private static AutoLock lockOnceReleased(ManagedSession session) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            AutoLock lock = session.lock();
            if (session.getRequests() == 0 || System.nanoTime() > deadline) {
                return lock;
            }
            lock.close();
            Thread.sleep(10);
        }
    }

    private static void awaitThreadWaitingIn(String method) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            for (var thread : Thread.getAllStackTraces().entrySet()) {
                if (thread.getKey().getState() == Thread.State.WAITING
                        && List.of(thread.getValue()).stream().anyMatch(frame -> frame.getMethodName().equals(method))) {
                    return;
                }
            }
            Thread.sleep(10);
        }
        StringBuilder dump = new StringBuilder();
        Thread.getAllStackTraces().forEach((t, frames) -> dump.append(t.getName()).append(' ').append(t.getState())
                .append(' ').append(List.of(frames).subList(0, Math.min(12, frames.length))).append('\n'));
        throw new AssertionError("no thread waits in " + method + "\n" + dump);
    }

    @Test
    void theExpirySweepEndsOnlySessionsThisNodeHoldsThatHaveExpiredByThen() throws Exception {
        String expiring = idOf(cookie(n1.get(n1.app("/app/session?set=a&value=1&maxInactive=1")), "JSESSIONID"));
        String active = idOf(cookie(n1.get(n1.app("/app/session?set=b&value=2")), "JSESSIONID"));
        CohortSessionCache cache = n1.sessionCache("/app");
        Thread.sleep(1_500);

        // a candidate's timer went off earlier, but the session was taken over and back, or is held elsewhere since
        assertThat(cache.checkExpiration(new java.util.HashSet<>(List.of(expiring, active, "heldelsewhere"))))
                .containsExactly(expiring);
    }

    @Test
    void anOrphanTheSweepNamedIsEndedThroughTheApplicationUnlessARequestLoadedItLiveMeanwhile() throws Exception {
        String expiredCookie = cookie(n1.get(n1.app("/app/session?set=cart&value=EST-1")), "JSESSIONID");
        String liveCookie = cookie(n1.get(n1.app("/app/session?set=cart&value=EST-2")), "JSESSIONID");
        ageCopy(idOf(expiredCookie), Duration.ofMinutes(40), Duration.ofMinutes(30));
        stores.orphans.addAll(List.of(idOf(expiredCookie), idOf(liveCookie)));
        CohortSessionCache cache = n2.sessionCache("/app");

        assertThat(cache.checkExpiration(new java.util.HashSet<>())).as("both named to n2's sweep")
                .containsExactlyInAnyOrder(idOf(expiredCookie), idOf(liveCookie));
        // the user of the live one comes back at n2 before the sweep gets to it
        assertThat(withCookies(n2, n2.app("/app/session"), "JSESSIONID=" + liveCookie).body()).contains("cart=EST-2");
        assertThat(cache.delete(idOf(liveCookie))).as("left alone").isNull();
        assertThat(cache.delete(idOf(expiredCookie))).as("loaded, to be ended").isNotNull();

        assertThat(withCookies(n2, n2.app("/app/session"), "JSESSIONID=" + liveCookie).body()).contains("cart=EST-2");
    }

    @Test
    void aNewInactiveIntervalIsAChangeTheStoreIsTold() throws Exception {
        String sessionCookie = cookie(n1.get(n1.app("/app/session?set=cart&value=EST-1")), "JSESSIONID");

        withCookies(n1, n1.app("/app/session?maxInactive=300"), "JSESSIONID=" + sessionCookie);

        assertThat(stores.intervalChanges).containsExactly(300_000L);
    }

    @Test
    void invalidatingOrRenewingASessionInOneApplicationLooksNothingUpInAnother() throws Exception {
        Path other = Files.createDirectories(dir1.resolve("build")).resolve("other.war");
        TestWars.write(other, "other-v1", true);
        n1.node.deployer().deploy(other);
        String sessionCookie = cookie(n1.get(n1.app("/app/session?set=cart&value=EST-1")), "JSESSIONID");

        HttpResponse<String> renewed = withCookies(n1, n1.app("/app/session?changeId=1"), "JSESSIONID=" + sessionCookie);
        withCookies(n1, n1.app("/app/session?invalidate=1"), "JSESSIONID=" + cookie(renewed, "JSESSIONID"));

        assertThat(stores.loads).as("lookups of the other application").noneMatch(load -> load.startsWith("other/"));
    }

    @Test
    void sessionOfAnotherNodeIsServedWithItsAttributesAndTheCookieGetsThisNodesRoute() throws Exception {
        HttpResponse<String> first = n1.get(n1.app("/app/session?set=cart&value=EST-1"));
        String sessionCookie = cookie(first, "JSESSIONID");
        assertThat(sessionCookie).endsWith(".n1");
        String id = sessionCookie.substring(0, sessionCookie.lastIndexOf('.'));

        HttpResponse<String> atN2 = withCookies(n2, n2.app("/app/session?set=step&value=2"), "JSESSIONID=" + sessionCookie);

        assertThat(atN2.statusCode()).isEqualTo(200);
        assertThat(atN2.body()).contains("id=" + id, "cart=EST-1", "step=2");
        assertThat(cookie(atN2, "JSESSIONID")).isEqualTo(id + ".n2");
    }

    @Test
    void changedSessionIdKeepsTheSessionAndMovesItsCopy() throws Exception {
        String before = cookie(n1.get(n1.app("/app/session?set=cart&value=EST-1")), "JSESSIONID");
        String oldId = before.substring(0, before.lastIndexOf('.'));

        HttpResponse<String> changed = withCookies(n1, n1.app("/app/session?changeId&set=user&value=j2ee"),
                "JSESSIONID=" + before + "; COHORT_BACKUP=n2." + placementOf(oldId));
        String after = cookie(changed, "JSESSIONID");
        String newId = after.substring(0, after.lastIndexOf('.'));
        assertThat(cookie(changed, "COHORT_BACKUP")).as("the new id's holders").isEqualTo("n2." + placementOf(newId));

        assertThat(newId).isNotEqualTo(oldId);
        assertThat(after).endsWith(".n1");
        assertThat(changed.body()).contains("id=" + newId, "cart=EST-1", "user=j2ee");
        assertThat(withCookies(n1, n1.app("/app/session"), "JSESSIONID=" + after).body())
                .contains("id=" + newId, "cart=EST-1", "user=j2ee");
        assertThat(stores.copies).containsKey("app/" + newId).doesNotContainKey("app/" + oldId);
    }

    @Test
    void nodeTellsTheBalancerWhereTheCopiesAre() throws Exception {
        HttpResponse<String> first = n1.get(n1.app("/app/session?set=a&value=1"));
        String sessionCookie = cookie(first, "JSESSIONID");

        String holders = "n2." + placementOf(sessionCookie.substring(0, sessionCookie.lastIndexOf('.')));
        assertThat(cookie(first, "COHORT_BACKUP")).isEqualTo(holders);
        HttpResponse<String> again = withCookies(n1, n1.app("/app/session"),
                "JSESSIONID=" + sessionCookie + "; COHORT_BACKUP=" + holders);
        assertThat(again.headers().allValues("Set-Cookie")).noneMatch(c -> c.startsWith("COHORT_BACKUP"));
    }

    @Test
    void aClientThatNamesCopyHoldersOfASessionNoMemberHoldsACopyOfNowIsToldToForgetThem() throws Exception {
        HttpResponse<String> first = n1.get(n1.app("/app/session?set=a&value=1"));
        String sessionCookie = cookie(first, "JSESSIONID");
        String holders = cookie(first, "COHORT_BACKUP");
        withoutCopies.add(sessionCookie.substring(0, sessionCookie.lastIndexOf('.'))); // the holders left

        HttpResponse<String> again = withCookies(n1, n1.app("/app/session"),
                "JSESSIONID=" + sessionCookie + "; COHORT_BACKUP=" + holders);

        assertThat(again.headers().allValues("Set-Cookie")).as("a balancer would try members that are gone")
                .anyMatch(c -> c.startsWith("COHORT_BACKUP=;") && c.contains("Expires=Thu, 01 Jan 1970 00:00:00 GMT"));
    }

    @Test
    void sessionNobodyHoldsBecomesANewSession() throws Exception {
        HttpResponse<String> response = withCookies(n2, n2.app("/app/session"), "JSESSIONID=nosuchsession.n1");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).doesNotContain("id=nosuchsession");
        assertThat(cookie(response, "JSESSIONID")).endsWith(".n2");
    }

    @Test
    void invalidationAtTheNewOwnerRemovesTheCopy() throws Exception {
        String sessionCookie = cookie(n1.get(n1.app("/app/session?set=a&value=1")), "JSESSIONID");
        String id = sessionCookie.substring(0, sessionCookie.lastIndexOf('.'));
        assertThat(stores.copies).containsKey("app/" + id);

        withCookies(n2, n2.app("/app/session?invalidate"), "JSESSIONID=" + sessionCookie);

        assertThat(stores.copies).doesNotContainKey("app/" + id);
    }

    @Test
    void anInvalidationTellsTheStoreOfTheRemovalNotOfEachAttributeItClears() throws Exception {
        String sessionCookie = cookie(n1.get(n1.app("/app/session?set=a&value=1")), "JSESSIONID");
        withCookies(n1, n1.app("/app/session?set=b&value=2"), "JSESSIONID=" + sessionCookie);
        withCookies(n1, n1.app("/app/session?set=c&value=3"), "JSESSIONID=" + sessionCookie);
        assertThat(stores.attributeChanges).containsExactly("a", "b", "c");
        String id = sessionCookie.substring(0, sessionCookie.lastIndexOf('.'));

        withCookies(n1, n1.app("/app/session?invalidate"), "JSESSIONID=" + sessionCookie);

        assertThat(stores.attributeChanges).as("no change per cleared attribute").containsExactly("a", "b", "c");
        assertThat(stores.copies).doesNotContainKey("app/" + id);
    }

    @Test
    void copyThatExpiredBeforeTheTakeoverIsNotServedAndIsRemovedAndTheApplicationHearsOfItsEnd() throws Exception {
        String sessionCookie = cookie(n1.get(n1.app("/app/session?set=cart&value=EST-1")), "JSESSIONID");
        String id = sessionCookie.substring(0, sessionCookie.lastIndexOf('.'));
        // idle 40 minutes with a 30-minute timeout: the owner would have expired it long ago, even had it seen
        // accesses up to a quarter of the timeout (7.5 minutes) after the copy's last touch
        ageCopy(id, Duration.ofMinutes(40), Duration.ofMinutes(30));

        HttpResponse<String> atN2 = withCookies(n2, n2.app("/app/session"), "JSESSIONID=" + sessionCookie);

        assertThat(atN2.statusCode()).isEqualTo(200);
        assertThat(atN2.body()).doesNotContain("id=" + id).doesNotContain("cart=EST-1");
        assertThat(cookie(atN2, "JSESSIONID")).doesNotStartWith(id).endsWith(".n2");
        assertThat(stores.copies).as("the expired copy is removed from the store").doesNotContainKey("app/" + id);
        assertThat(n2.get(n2.app("/app/session?ended")).body()).as("the session listeners at n2 heard of the end")
                .isEqualTo(id + "{cart=EST-1}");
    }

    @Test
    void copyThatHasNotExpiredIsServedWithItsOwnLastAccessTime() throws Exception {
        String sessionCookie = cookie(n1.get(n1.app("/app/session?set=cart&value=EST-1")), "JSESSIONID");
        String id = sessionCookie.substring(0, sessionCookie.lastIndexOf('.'));
        // idle 20 minutes with a 30-minute timeout: still alive
        Instant lastAccessed = ageCopy(id, Duration.ofMinutes(20), Duration.ofMinutes(30));

        HttpResponse<String> atN2 = withCookies(n2, n2.app("/app/session?meta"), "JSESSIONID=" + sessionCookie);

        assertThat(atN2.body()).contains("id=" + id, "cart=EST-1",
                "lastAccessedTime=" + lastAccessed.toEpochMilli() + "\n");
        assertThat(cookie(atN2, "JSESSIONID")).isEqualTo(id + ".n2");
    }

    @Test
    void copyPastItsTimeoutByLessThanAQuarterIsServedBecauseTheOwnerMayHaveSeenLaterAccesses() throws Exception {
        String sessionCookie = cookie(n1.get(n1.app("/app/session?set=cart&value=EST-1")), "JSESSIONID");
        String id = sessionCookie.substring(0, sessionCookie.lastIndexOf('.'));
        // idle 35 minutes by the copy with a 30-minute timeout: touches refresh a copy's last access only every quarter
        // of the timeout, so the user may have been active 27.5 minutes ago
        ageCopy(id, Duration.ofMinutes(35), Duration.ofMinutes(30));

        HttpResponse<String> atN2 = withCookies(n2, n2.app("/app/session"), "JSESSIONID=" + sessionCookie);

        assertThat(atN2.body()).contains("id=" + id, "cart=EST-1");
        assertThat(cookie(atN2, "JSESSIONID")).isEqualTo(id + ".n2");
    }

    /** Rewrites the stored copy as last accessed {@code idle} ago with the given timeout; its last access. */
    private Instant ageCopy(String id, Duration idle, Duration timeout) {
        StoredSession copy = stores.copies.get("app/" + id);
        Instant lastAccessed = Instant.now().minus(idle);
        stores.copies.put("app/" + id, new StoredSession(id, copy.version(), lastAccessed.minusSeconds(60), lastAccessed,
                timeout.toMillis(), copy.attributes()));
        return lastAccessed;
    }

    @Test
    void valueOfAClassTheApplicationDefinesInWebInfClassesNeedsNoAllowPattern() throws Exception {
        String sessionCookie = cookie(n1.get(n1.app("/app/session?item=cart&value=EST-1")), "JSESSIONID");

        HttpResponse<String> atN2 = withCookies(n2, n2.app("/app/session"), "JSESSIONID=" + sessionCookie);

        assertThat(atN2.body()).contains("cart=CartItem(EST-1)");
        assertThat(n2.node.metrics().registry().find("cohort.session.deserialization.rejected").counter())
                .satisfiesAnyOf(counter -> assertThat(counter).isNull(), counter -> assertThat(counter.count()).isZero());
    }

    @Test
    void valueOfAClassOutsideTheAllowListIsDroppedAndCounted() throws Exception {
        String sessionCookie = cookie(n1.get(n1.app("/app/session?set=cart&value=EST-1")), "JSESSIONID");
        String id = sessionCookie.substring(0, sessionCookie.lastIndexOf('.'));
        // a JDK class the application can load, outside the default allow-list (its hash code looks the host up)
        putInCopy(id, "evil", new java.net.URL("http://gadget.invalid/"), 0);

        HttpResponse<String> atN2 = withCookies(n2, n2.app("/app/session"), "JSESSIONID=" + sessionCookie);

        assertThat(atN2.body()).contains("cart=EST-1").doesNotContain("evil");
        assertThat(n2.node.metrics().registry().get("cohort.session.deserialization.rejected").counter().count())
                .isEqualTo(1);
    }

    @Test
    void valueOfAClassTheApplicationCannotLoadIsDroppedAndCounted() throws Exception {
        String sessionCookie = cookie(n1.get(n1.app("/app/session?set=cart&value=EST-1")), "JSESSIONID");
        String id = idOf(sessionCookie);
        putInCopy(id, "evil", new Gadget(), 0); // on the node's class path, hidden from the application

        HttpResponse<String> atN2 = withCookies(n2, n2.app("/app/session"), "JSESSIONID=" + sessionCookie);

        assertThat(atN2.body()).contains("cart=EST-1").doesNotContain("evil");
        assertThat(n2.node.metrics().registry().get("cohort.session.values.rejected").counter().count()).isEqualTo(1);
    }

    /** Puts {@code value} in the stored copy of the session as {@code name}, its version {@code versionStep} on. */
    private void putInCopy(String id, String name, Object value, long versionStep) throws Exception {
        StoredSession copy = stores.copies.get("app/" + id);
        var attributes = new HashMap<>(copy.attributes());
        attributes.put(name, serialize(value));
        stores.copies.put("app/" + id, new StoredSession(id, copy.version() + versionStep, copy.created(),
                copy.lastAccessed(), copy.maxInactiveMillis(), attributes));
    }

    private static byte[] serialize(Object value) throws Exception {
        var bytes = new ByteArrayOutputStream();
        try (var out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        return bytes.toByteArray();
    }

    static String placementOf(String sessionId) {
        return "p" + Integer.toHexString(sessionId.hashCode());
    }

    private static HttpResponse<String> withCookies(TestNode node, URI uri, String cookies) throws Exception {
        return node.send(HttpRequest.newBuilder(uri).header("Cookie", cookies));
    }

    /** The session id in a JSESSIONID value, without its route. */
    private static String idOf(String sessionCookie) {
        return sessionCookie.substring(0, sessionCookie.lastIndexOf('.'));
    }

    private static String cookie(HttpResponse<String> response, String name) {
        return response.headers().allValues("Set-Cookie").stream()
                .filter(c -> c.startsWith(name + "="))
                .map(c -> c.substring(name.length() + 1, c.indexOf(';') < 0 ? c.length() : c.indexOf(';')))
                .findFirst().orElseThrow(() -> new AssertionError("no " + name + " cookie in " + response.headers().map()));
    }
}
