package io.cohort.cli.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.cohort.admin.HealthReport;
import io.cohort.config.ConfigDuration;
import io.cohort.node.deploy.ApplicationInfo;
import io.cohort.node.deploy.ApplicationName;
import java.io.FileNotFoundException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A client of a node's admin endpoint ({@code io.cohort.admin.AdminHandler}): health without a
 * token, deployments with one. Every call is asynchronous, so one command can talk to all members at
 * once, and fails with an {@link AdminCallException} that says what went wrong in one line.
 * Thread-safe.
 */
public final class AdminClient {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
    private final ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private final Duration timeout;

    /** @param timeout longest wait for one answer (a deployment answers when the application serves) */
    public AdminClient(Duration timeout) {
        this.timeout = timeout;
    }

    /** {@code GET /health}: the node's report, whatever its state (a node that is not UP answers 503). */
    public CompletableFuture<HealthReport> health(URI admin) {
        return call(request(admin, "/health", null).GET(), admin).thenApply(response -> {
            if (response.statusCode() != 200 && response.statusCode() != 503) {
                throw failure(response);
            }
            return parse(response.body(), new TypeReference<HealthReport>() { });
        });
    }

    /** {@code GET /admin/apps}: the applications the node serves. */
    public CompletableFuture<List<ApplicationInfo>> applications(URI admin, String token) {
        return call(request(admin, "/admin/apps", token).GET(), admin)
                .thenApply(response -> parse(expect(response, 200).body(), new TypeReference<List<ApplicationInfo>>() { }));
    }

    /** {@code PUT /admin/apps/{name}}: deploys or redeploys; completes when the application serves. */
    public CompletableFuture<ApplicationInfo> deploy(URI admin, String token, ApplicationName name, Path war) {
        BodyPublisher body;
        try {
            body = HttpRequest.BodyPublishers.ofFile(war);
        } catch (FileNotFoundException e) {
            return CompletableFuture.failedFuture(new AdminCallException(0, "no such WAR file: " + war));
        }
        return call(request(admin, "/admin/apps/" + name.value(), token).PUT(body), admin)
                .thenApply(response -> parse(expect(response, 200).body(), new TypeReference<ApplicationInfo>() { }));
    }

    /** {@code DELETE /admin/apps/{name}}: true if it was undeployed, false if it was not deployed. */
    public CompletableFuture<Boolean> undeploy(URI admin, String token, ApplicationName name) {
        return call(request(admin, "/admin/apps/" + name.value(), token).DELETE(), admin).thenApply(response -> {
            if (response.statusCode() == 404) {
                return false;
            }
            expect(response, 204);
            return true;
        });
    }

    private HttpRequest.Builder request(URI admin, String path, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(admin.resolve(path)).timeout(timeout);
        if (token != null) {
            try {
                request.header("Authorization", "Bearer " + token);
            } catch (IllegalArgumentException e) { // the JDK's message quotes the header's value: never the token
                throw new IllegalArgumentException("the admin token holds characters an HTTP header cannot carry");
            }
        }
        return request;
    }

    private CompletableFuture<HttpResponse<String>> call(HttpRequest.Builder request, URI admin) {
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
                .exceptionally(e -> {
                    throw new AdminCallException(describe(e, admin), e);
                });
    }

    private String describe(Throwable e, URI admin) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof ConnectException) {
            return "cannot connect to " + admin + " (is the node running?)";
        }
        if (cause instanceof HttpTimeoutException) {
            return "no answer from " + admin + " within " + ConfigDuration.format(timeout);
        }
        return admin + ": " + (cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage());
    }

    private HttpResponse<String> expect(HttpResponse<String> response, int status) {
        if (response.statusCode() != status) {
            throw failure(response);
        }
        return response;
    }

    private AdminCallException failure(HttpResponse<String> response) {
        int status = response.statusCode();
        String message = switch (status) {
            case 401 -> "the node refused the admin token (401); give the token with --token-env or in the cluster file";
            case 403 -> "the node's admin API is off (403): it has no <admin token-env=...> or token-file";
            default -> status + ": " + errorText(response.body());
        };
        return new AdminCallException(status, message);
    }

    private String errorText(String body) {
        try {
            JsonNode error = json.readTree(body).get("error");
            if (error != null && error.isTextual()) {
                return error.asText();
            }
        } catch (JsonProcessingException notJson) {
            // fall through to the raw body
        }
        return body.length() > 200 ? body.substring(0, 200) + "..." : body;
    }

    private <T> T parse(String body, TypeReference<T> type) {
        try {
            return json.readValue(body, type);
        } catch (JsonProcessingException e) {
            throw new AdminCallException(0, "unexpected answer: " + e.getOriginalMessage());
        }
    }
}
