package io.cohort.balancer;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * A stand-in for a Cohort node behind the balancer: an embedded Jetty on a free port that answers
 * {@code GET /health} like a node ({@code status}, {@code node}, {@code host},
 * {@code load.spareCapacity}; 200 when healthy, 503 otherwise) and every other request with its
 * own name (body and {@code X-Served-By}). While {@link #healthSilent} it leaves health checks
 * unanswered, as a member too busy to answer them in time. {@code /headers} answers the request headers it got,
 * one per line; a POST answers {@code name:body}; {@code /hold} answers only at {@link #releaseHeld}; {@code /big}
 * answers 64 MiB of zeros; {@code /bighead?bytes=N} answers with a header {@code X-Big} of N bytes;
 * {@code /die} counts the request and then drops
 * the connection without answering.
 */
final class StubMember implements AutoCloseable {

    final String name;
    final String host;
    private final Server server = new Server();
    private final ServerConnector connector = new ServerConnector(server);
    private final AtomicInteger served = new AtomicInteger();
    private final AtomicInteger dying = new AtomicInteger();
    private volatile String lastTarget;
    private volatile boolean healthy = true;
    private volatile String healthRedirect;
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private volatile boolean healthSilent;
    private volatile double spareCapacity = 0.5;
    private volatile String reportedNode;

    private StubMember(String name, String host) {
        this.name = name;
        this.host = host;
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        // a member takes heads as large as any balancer of the tests lets through
        connector.getConnectionFactory(HttpConnectionFactory.class).getHttpConfiguration().setRequestHeaderSize(128 * 1024);
        // and answers heads larger than any balancer takes (/bighead)
        connector.getConnectionFactory(HttpConnectionFactory.class).getHttpConfiguration().setMaxResponseHeaderSize(256 * 1024);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                return serve(request, response, callback);
            }
        });
    }

    static StubMember start(String name, String host) throws Exception {
        StubMember member = new StubMember(name, host);
        member.server.start();
        return member;
    }

    static StubMember start(String name) throws Exception {
        return start(name, "localhost");
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    int port() {
        return connector.getLocalPort();
    }

    void healthy(boolean value) {
        healthy = value;
    }

    /** Whether health checks go unanswered (the balancer's check times out) while other requests are answered. */
    void healthSilent(boolean value) {
        healthSilent = value;
    }

    void spareCapacity(double value) {
        spareCapacity = value;
    }

    /** The node name its health answer gives from now on (a node the balancer's member is misnamed for). */
    void reportsNode(String node) {
        reportedNode = node;
    }

    /** Requests answered other than health checks. */
    int served() {
        return served.get();
    }

    /** The request target (path and query, as sent on the wire) of the last request answered other than a health check. */
    String lastTarget() {
        return lastTarget;
    }

    /** Requests to {@code /die} received. */
    int dying() {
        return dying.get();
    }

    /** From now on its health check answers 302 to {@code location} (null: answers itself again). */
    void healthRedirectsTo(String location) {
        healthRedirect = location;
    }

    /** Waits until a request to {@code /hold} arrived; it is answered (200, the name) at {@link #releaseHeld}. */
    void awaitHeld() throws InterruptedException {
        if (!held.await(20, TimeUnit.SECONDS)) {
            throw new AssertionError("no request to /hold reached " + name);
        }
    }

    void releaseHeld() {
        release.countDown();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes every connection made to it (the balancer's pooled ones too): the next request needs a new one. */
    void dropConnections() {
        connector.getConnectedEndPoints().forEach(endPoint -> endPoint.close());
    }

    /** Stops listening: connections to its port are refused from now on. */
    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("stub member " + name + " did not stop", e);
        }
    }

    private boolean serve(Request request, Response response, Callback callback) throws IOException {
        String path = Request.getPathInContext(request);
        if (path.equals("/health") && healthSilent) {
            return true; // never answered: the checker times out, and stopping the stub ends the exchange
        }
        if (path.equals("/health") && healthRedirect != null) {
            response.setStatus(302);
            response.getHeaders().put(HttpHeader.LOCATION, healthRedirect);
            callback.succeeded();
            return true;
        }
        if (path.equals("/health")) {
            String json = String.format(Locale.ROOT, "{\"status\":\"%s\",\"node\":\"%s\",\"host\":\"%s\",\"load\":{\"spareCapacity\":%.3f,"
                    + "\"activeRequests\":0,\"busyThreads\":1,\"maxThreads\":200,\"processCpu\":0.01},\"applications\":1,\"sessions\":0,"
                    + "\"members\":1}", healthy ? "UP" : "DRAINING", reportedNode == null ? name : reportedNode, host, spareCapacity);
            response.setStatus(healthy ? 200 : 503);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            response.write(true, ByteBuffer.wrap(json.getBytes(StandardCharsets.UTF_8)), callback);
            return true;
        }
        if (path.equals("/hold")) {
            held.countDown();
            CompletableFuture.runAsync(() -> { // answers once released, without holding a server thread
                await(release);
                response.setStatus(200);
                response.write(true, ByteBuffer.wrap(name.getBytes(StandardCharsets.UTF_8)), callback);
            });
            return true;
        }
        if (path.equals("/events")) { // ?count=N&every=ms: one event every so often, the answer ends after the last
            served.incrementAndGet();
            String[] query = request.getHttpURI().getQuery().split("&");
            int count = Integer.parseInt(query[0].substring("count=".length()));
            long every = Long.parseLong(query[1].substring("every=".length()));
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream");
            CompletableFuture.runAsync(() -> { // paced without holding a server thread
                try {
                    for (int i = 0; i < count; i++) {
                        Callback.Completable written = new Callback.Completable();
                        response.write(false, ByteBuffer.wrap(("data: " + i + "\n\n").getBytes(StandardCharsets.UTF_8)), written);
                        written.get();
                        Thread.sleep(every);
                    }
                    response.write(true, ByteBuffer.allocate(0), callback);
                } catch (Exception e) {
                    callback.failed(e);
                }
            });
            return true;
        }
        if (path.equals("/big")) { // 64 MiB, more than socket buffers hold: a client that stops reading makes the write fail
            response.setStatus(200);
            response.write(true, ByteBuffer.allocate(64 << 20), callback);
            return true;
        }
        if (path.equals("/bighead")) {
            served.incrementAndGet();
            int bytes = Integer.parseInt(request.getHttpURI().getQuery().substring("bytes=".length()));
            response.setStatus(200);
            response.getHeaders().put("X-Big", "x".repeat(bytes));
            response.write(true, ByteBuffer.wrap(name.getBytes(StandardCharsets.UTF_8)), callback);
            return true;
        }
        if (path.equals("/die")) {
            dying.incrementAndGet();
            Content.Source.consumeAll(request);
            request.getConnectionMetaData().getConnection().getEndPoint().close();
            callback.failed(new IOException("member died"));
            return true;
        }
        lastTarget = request.getHttpURI().getPathQuery();
        served.incrementAndGet();
        String body = name;
        if (path.equals("/headers")) {
            StringBuilder lines = new StringBuilder();
            for (HttpField field : request.getHeaders()) {
                lines.append(field.getName()).append(": ").append(field.getValue()).append('\n');
            }
            body = lines.toString();
        } else if ("POST".equals(request.getMethod()) || "PUT".equals(request.getMethod())) {
            body = name + ":" + Content.Source.asString(request, StandardCharsets.UTF_8);
        }
        response.setStatus(200);
        response.getHeaders().put("X-Served-By", name);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain;charset=utf-8");
        response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
        return true;
    }
}
