package io.cohort.balancer;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The balancer's endpoints on its admin connector: {@code GET /health} (JSON: {@code status} UP
 * while at least one member is up, else DOWN with HTTP 503; {@code balancer}, {@code host},
 * {@code policy} and {@code members}) and {@code GET /metrics} (Prometheus text). Everything else
 * is 404. No token is needed: the endpoints change nothing and listen on loopback by default.
 * Non-blocking (answers are built in memory and written asynchronously), so the balancer's handler
 * tree as a whole stays non-blocking (see {@link BalancerProxy}).
 */
final class BalancerAdminHandler extends Handler.Abstract {

    private static final String PROMETHEUS = "text/plain; version=0.0.4; charset=utf-8";

    /** The {@code GET /health} answer. */
    record Health(String status, String balancer, String host, String policy, List<MemberStatus> members) {
    }

    private final Supplier<Health> health;
    private final BalancerMetrics metrics;
    private final ObjectMapper json = new ObjectMapper();

    BalancerAdminHandler(Supplier<Health> health, BalancerMetrics metrics) {
        this.health = health;
        this.metrics = metrics;
    }

    @Override
    public InvocationType getInvocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = Request.getPathInContext(request);
        boolean get = HttpMethod.GET.is(request.getMethod()) || HttpMethod.HEAD.is(request.getMethod());
        if (get && path.equals("/health")) {
            Health answer = health.get();
            write(response, callback, "UP".equals(answer.status()) ? HttpStatus.OK_200 : HttpStatus.SERVICE_UNAVAILABLE_503,
                    "application/json", json.writeValueAsBytes(answer));
        } else if (get && path.equals("/metrics")) {
            write(response, callback, HttpStatus.OK_200, PROMETHEUS, metrics.scrape().getBytes(StandardCharsets.UTF_8));
        } else {
            write(response, callback, HttpStatus.NOT_FOUND_404, "application/json",
                    "{\"error\":\"no such endpoint; try GET /health or GET /metrics\"}".getBytes(StandardCharsets.UTF_8));
        }
        return true;
    }

    private static void write(Response response, Callback callback, int status, String type, byte[] body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.write(true, ByteBuffer.wrap(body), callback);
    }
}
