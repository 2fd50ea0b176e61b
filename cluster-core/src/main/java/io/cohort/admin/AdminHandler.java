package io.cohort.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.cohort.net.LingeringClose;
import io.cohort.node.deploy.ApplicationName;
import io.cohort.node.deploy.DeploymentException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's management endpoints, served on the admin connector only.
 *
 * <table>
 *   <caption>Endpoints</caption>
 *   <tr><th>request</th><th>token</th><th>answer</th></tr>
 *   <tr><td>GET /health</td><td>no</td><td>{@link HealthReport} as JSON; 200 when UP, else 503</td></tr>
 *   <tr><td>GET /metrics</td><td>no</td><td>Prometheus text format</td></tr>
 *   <tr><td>GET /admin/apps</td><td>yes</td><td>deployed applications</td></tr>
 *   <tr><td>PUT /admin/apps/{name}</td><td>yes</td><td>body is a WAR: deploy or redeploy; 200 with the application;
 *       413 when larger than {@code max-upload}, and nothing is deployed or left on disk (the rest of the body is
 *       read and dropped within {@link LingeringClose}'s bounds, so a client still sending it reads the 413)</td></tr>
 *   <tr><td>DELETE /admin/apps/{name}</td><td>yes</td><td>undeploy; 204, or 404 if not deployed</td></tr>
 *   <tr><td>GET /admin/status</td><td>yes</td><td>health, applications and cluster members</td></tr>
 *   <tr><td>POST /admin/stop</td><td>yes</td><td>202; the node stops gracefully</td></tr>
 * </table>
 * Admin requests without the configured bearer token get 401 and change nothing; with no token
 * configured the admin API answers 403. Errors are short JSON messages, never stack traces.
 */
public final class AdminHandler extends Handler.Abstract {

    private static final Logger LOG = LoggerFactory.getLogger(AdminHandler.class);
    private static final String JSON = "application/json";
    private static final String PROMETHEUS = "text/plain; version=0.0.4; charset=utf-8";

    private final AdminOperations node;
    private final BearerToken token;
    private final UploadLimit uploadLimit;
    private final ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    /**
     * @param node           what the endpoints operate on
     * @param token          the admin API's bearer token; empty turns the admin API off
     * @param maxUploadBytes the largest WAR a deploy accepts
     */
    public AdminHandler(AdminOperations node, Optional<String> token, long maxUploadBytes) {
        this.node = node;
        this.token = new BearerToken(token);
        this.uploadLimit = new UploadLimit(maxUploadBytes);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = Request.getPathInContext(request);
        String method = request.getMethod();
        try {
            if (path.equals("/health") && isGet(method)) {
                HealthReport health = node.health();
                int status = health.status() == NodeState.UP ? HttpStatus.OK_200 : HttpStatus.SERVICE_UNAVAILABLE_503;
                send(response, callback, status, health);
            } else if (path.equals("/metrics") && isGet(method)) {
                write(response, callback, HttpStatus.OK_200, PROMETHEUS, node.scrapeMetrics());
            } else if (path.equals("/admin") || path.startsWith("/admin/")) {
                admin(request, response, callback, path.substring("/admin".length()), method);
            } else {
                error(request, response, callback, HttpStatus.NOT_FOUND_404, "no such endpoint: " + method + " " + path);
            }
        } catch (NodeNotServingException e) {
            response.getHeaders().put(HttpHeader.RETRY_AFTER, "5");
            error(request, response, callback, HttpStatus.SERVICE_UNAVAILABLE_503, e.getMessage());
        } catch (UploadLimit.TooLarge e) {
            error(request, response, callback, HttpStatus.PAYLOAD_TOO_LARGE_413, e.getMessage());
        } catch (DeploymentException e) {
            error(request, response, callback, HttpStatus.UNPROCESSABLE_ENTITY_422, e.getMessage());
        } catch (IllegalArgumentException e) {
            error(request, response, callback, HttpStatus.BAD_REQUEST_400, e.getMessage());
        } catch (IOException | RuntimeException e) {
            LOG.warn("Admin request {} {} failed", method, path, e);
            error(request, response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500, "internal error: " + e.getMessage());
        }
        return true;
    }

    private void admin(Request request, Response response, Callback callback, String path, String method)
            throws Exception {
        if (!token.configured()) {
            error(request, response, callback, HttpStatus.FORBIDDEN_403,
                    "the admin API is disabled: configure <admin token-env=...> or token-file");
            return;
        }
        if (!token.authorizes(request.getHeaders().get(HttpHeader.AUTHORIZATION))) {
            response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer realm=\"cohort-admin\"");
            error(request, response, callback, HttpStatus.UNAUTHORIZED_401, "missing or wrong bearer token");
            return;
        }
        if (path.equals("/apps") && isGet(method)) {
            send(response, callback, HttpStatus.OK_200, node.applications());
        } else if (path.startsWith("/apps/") && HttpMethod.PUT.is(method)) {
            ApplicationName name = new ApplicationName(path.substring("/apps/".length()));
            if (uploadLimit.refuses(request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH))) {
                throw uploadLimit.tooLarge();
            }
            try (InputStream war = uploadLimit.cap(new RequestBodyStream(request))) {
                send(response, callback, HttpStatus.OK_200, node.deploy(name, war));
            }
        } else if (path.startsWith("/apps/") && HttpMethod.DELETE.is(method)) {
            ApplicationName name = new ApplicationName(path.substring("/apps/".length()));
            if (node.undeploy(name)) {
                response.setStatus(HttpStatus.NO_CONTENT_204);
                callback.succeeded();
            } else {
                error(request, response, callback, HttpStatus.NOT_FOUND_404, "not deployed: " + name);
            }
        } else if (path.equals("/status") && isGet(method)) {
            send(response, callback, HttpStatus.OK_200, Map.of("health", node.health(),
                    "applications", node.applications(), "members", node.members()));
        } else if (path.equals("/stop") && HttpMethod.POST.is(method)) {
            send(response, callback, HttpStatus.ACCEPTED_202, Map.of("status", "stopping"));
            node.stopGracefully();
        } else {
            error(request, response, callback, HttpStatus.NOT_FOUND_404, "no such endpoint: " + method + " /admin" + path);
        }
    }

    private static boolean isGet(String method) {
        return HttpMethod.GET.is(method) || HttpMethod.HEAD.is(method);
    }

    private void send(Response response, Callback callback, int status, Object body) throws IOException {
        write(response, callback, status, JSON, json.writeValueAsString(body));
    }

    /**
     * Answers with a JSON error. A refused request may still have body bytes on the wire that nobody
     * read (an unauthenticated WAR upload, a WAR over {@code max-upload}), after which the connection
     * cannot carry another request; the answer says {@code Connection: close} so that clients do not
     * reuse it and then find it closed under their next request. The rest of such a body is read and
     * dropped after the answer ({@link LingeringClose}, within its bounds), so that a client still
     * sending it gets the answer instead of a reset connection.
     */
    private void error(Request request, Response response, Callback callback, int status, String message)
            throws IOException {
        send(response, LingeringClose.forEarlyAnswer(request, response, callback), status,
                Map.of("error", message == null ? "" : message));
    }

    private static void write(Response response, Callback callback, int status, String type, String body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        Content.Sink.write(response, true, body, callback);
    }
}
