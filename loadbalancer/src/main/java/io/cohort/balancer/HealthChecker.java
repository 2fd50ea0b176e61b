package io.cohort.balancer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cohort.config.HealthCheckConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Active health checks: every {@code interval} after the previous check of a member ended, a GET of
 * its health URL; a 2xx answer within {@code timeout} passes, anything else fails, and
 * {@link HealthState} turns the results into up and down. A check that timed out while the member
 * began answering proxied requests neither passes nor fails ({@link Backend#excuseIfLate}): under
 * load a health answer can queue behind the requests, and a busy member is not a dead one (but has no
 * spare capacity until its next answer). A
 * node's health answer also carries {@code load.spareCapacity}, which the metric policies read.
 * Checks of one member never overlap; checks of different members run concurrently, on an
 * {@link HttpClient} of the checker's own: a check never waits for a connection behind proxied
 * requests that fill the proxy's {@code max-connections} to the member (long downloads, long polls),
 * so it measures the member, not the balancer's queue. A check whose kept-alive connection the member closed just as it
 * went out ({@link StaleConnection}) is sent once more before it counts.
 */
final class HealthChecker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HealthChecker.class);
    private static final int MAX_ANSWER = 64 * 1024;

    private final HttpClient client;
    private final HealthCheckConfig config;
    private final List<Backend> members;
    private final ObjectMapper json = new ObjectMapper();
    /** Members whose health answer named another node, logged once each. */
    private final Set<Backend> misnamedLogged = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "cohort-balancer-health");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * @param balancerName names the client's threads
     * @param idleTimeout  how long the client keeps an idle connection to a member (the balancer's {@code idle-timeout},
     *                     below a node's own, so the checker closes an idle connection first)
     */
    HealthChecker(String balancerName, Duration idleTimeout, HealthCheckConfig config, List<Backend> members,
                  LastKnownAddresses addresses) {
        this.client = newClient(balancerName, idleTimeout, config);
        client.setSocketAddressResolver(addresses.resolverFor(client)); // as the proxy's: a DNS outage fails no check
        this.config = config;
        this.members = List.copyOf(members);
    }

    /**
     * One connection per member is enough: checks of one member never overlap. Like the proxy's client it follows no
     * redirect (a 3xx fails the check; the balancer only ever connects to its members) and keeps no cookies.
     */
    private static HttpClient newClient(String balancerName, Duration idleTimeout, HealthCheckConfig config) {
        HttpClient client = new HttpClient();
        client.setFollowRedirects(false);
        client.setHttpCookieStore(new HttpCookieStore.Empty());
        QueuedThreadPool threads = new QueuedThreadPool(4, 1);
        threads.setName("cohort-" + balancerName + "-health");
        client.setExecutor(threads);
        client.setMaxConnectionsPerDestination(1);
        client.setConnectTimeout(config.timeout().toMillis());
        client.setIdleTimeout(idleTimeout.toMillis());
        client.setUserAgentField(null);
        return client;
    }

    /** Starts checking every member, the first check one interval from now. */
    void start() throws Exception {
        client.start();
        members.forEach(this::scheduleNext);
    }

    private void scheduleNext(Backend member) {
        if (!timer.isShutdown()) {
            timer.schedule(() -> check(member).whenComplete((ok, x) -> scheduleNext(member)), config.interval().toMillis(),
                    TimeUnit.MILLISECONDS);
        }
    }

    /** Checks every member once; completes when all checks have ended. */
    CompletableFuture<Void> checkAll() {
        return CompletableFuture.allOf(members.stream().map(this::check).toArray(CompletableFuture[]::new));
    }

    /** One check of one member; completes (never exceptionally) when its result is applied. */
    CompletableFuture<Void> check(Backend member) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        check(member, System.nanoTime(), true, done);
        return done;
    }

    /**
     * Sends one health request; a request that went out on a kept-alive connection the member closed just then (see
     * {@link StaleConnection}) is sent once more, if {@code mayResend}, instead of failing the check.
     */
    private void check(Backend member, long givenAtNanos, boolean mayResend, CompletableFuture<Void> done) {
        AtomicBoolean reused = new AtomicBoolean();
        try {
            client.newRequest(member.member().healthUrl()).method(HttpMethod.GET).timeout(config.timeout().toMillis(), TimeUnit.MILLISECONDS)
                    .onRequestBegin(sent -> reused.set(StaleConnection.reused(sent)))
                    .send(new BufferingResponseListener(MAX_ANSWER) {
                        @Override
                        public void onComplete(Result result) {
                            if (mayResend && reused.get() && result.isFailed() && result.getResponse().getStatus() == 0
                                    && StaleConnection.endedUnderIt(result.getFailure())) {
                                LOG.debug("Checking {} again: the kept-alive connection ended before any answer ({})",
                                        member.logName(), result.getFailure().toString());
                                check(member, givenAtNanos, false, done);
                                return;
                            }
                            try {
                                apply(member, result, this, givenAtNanos);
                            } finally {
                                done.complete(null);
                            }
                        }
                    });
        } catch (RuntimeException e) {
            failed(member, e.toString());
            done.complete(null);
        }
    }

    private void apply(Backend member, Result result, BufferingResponseListener answer, long givenAtNanos) {
        if (result.isFailed()) {
            if (!member.excuseIfLate(result.getFailure(), givenAtNanos)) {
                failed(member, String.valueOf(result.getFailure()));
            }
            return;
        }
        int status = result.getResponse().getStatus();
        readAnswer(member, answer, status / 100 == 2);
        if (status / 100 != 2) {
            failed(member, "HTTP " + status);
            return;
        }
        if (member.health().checkPassed() == HealthState.Change.CAME_UP) {
            LOG.info("Balancer {} is up ({} health checks passed)", member.logName(), config.rise());
        }
    }

    private void failed(Backend member, String why) {
        if (member.health().checkFailed() == HealthState.Change.WENT_DOWN) {
            LOG.warn("Balancer {} is down ({} health checks failed, last: {})", member.logName(), config.fall(), why);
        }
    }

    /**
     * Reads what a node's health answer says of it: its spare capacity (none unless the answer says it is healthy: a
     * node still starting is idle, and would otherwise draw the metric policy's new sessions before it can serve them),
     * and its name. A session id ends in the name of
     * the node that owns it, and the balancer finds a session's member by that name: a {@code <member>} named otherwise
     * than its node gets none of its sessions' requests as their owner, and none as the holder of their copies, so
     * that is logged once per member (a warning: the member still serves, as round robin's).
     */
    private void readAnswer(Backend member, BufferingResponseListener answer, boolean healthy) {
        if (!healthy) {
            member.spareCapacity(0);
        }
        byte[] body = answer.getContent();
        if (body.length == 0) {
            return;
        }
        try {
            JsonNode health = json.readTree(body);
            JsonNode spare = health.path("load").path("spareCapacity");
            if (healthy && spare.isNumber()) {
                member.spareCapacity(spare.asDouble());
            }
            JsonNode node = health.path("node");
            if (node.isTextual() && !node.asText().equals(member.name()) && misnamedLogged.add(member)) {
                LOG.warn("Balancer {} answers its health checks as node '{}': session ids end in the node's name, so no "
                        + "request of a session is routed to it as the session's owner or copy holder until the member is "
                        + "named '{}' (logged once)", member.logName(), node.asText(), node.asText());
            }
        } catch (IOException e) {
            LOG.debug("Health answer of {} is not JSON", member.logName(), e);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            client.stop();
        } catch (Exception e) {
            LOG.debug("Health check client did not stop cleanly", e);
        }
    }
}
