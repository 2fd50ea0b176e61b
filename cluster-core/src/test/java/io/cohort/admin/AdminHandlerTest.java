package io.cohort.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.cluster.Member;
import io.cohort.node.deploy.ApplicationInfo;
import io.cohort.node.deploy.ApplicationName;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The admin endpoints' answers to what the node reports, with the node replaced by a double. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AdminHandlerTest {

    private static final String TOKEN = "admin-handler-test-token-0123456789";

    @Test
    void deployAndUndeployWhileTheNodeIsNotServingAre503WithRetryAfter() throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(new AdminHandler(new StartingNode(), Optional.of(TOKEN), 1 << 20));
        server.start();
        try {
            URI base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            HttpRequest.Builder app = HttpRequest.newBuilder(base.resolve("/admin/apps/shop"))
                    .header("Authorization", "Bearer " + TOKEN).timeout(Duration.ofSeconds(10));

            HttpResponse<String> deploy = http.send(app.copy().PUT(HttpRequest.BodyPublishers.ofString("war")).build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> undeploy = http.send(app.copy().DELETE().build(), HttpResponse.BodyHandlers.ofString());

            for (HttpResponse<String> answer : List.of(deploy, undeploy)) {
                assertThat(answer.statusCode()).isEqualTo(503);
                assertThat(answer.headers().firstValue("Retry-After")).contains("5");
                assertThat(answer.body()).contains("the node is starting, not serving: nothing was changed");
            }
        } finally {
            server.stop();
        }
    }

    /** A node that has not finished starting: deploying and undeploying are refused, as the node refuses them. */
    private static final class StartingNode implements AdminOperations {
        @Override
        public HealthReport health() {
            throw new UnsupportedOperationException();
        }

        @Override
        public String scrapeMetrics() {
            return "";
        }

        @Override
        public List<ApplicationInfo> applications() {
            return List.of();
        }

        @Override
        public List<Member> members() {
            return List.of();
        }

        @Override
        public ApplicationInfo deploy(ApplicationName name, InputStream war) {
            throw new NodeNotServingException(NodeState.STARTING);
        }

        @Override
        public boolean undeploy(ApplicationName name) {
            throw new NodeNotServingException(NodeState.STARTING);
        }

        @Override
        public void stopGracefully() {
        }
    }
}
