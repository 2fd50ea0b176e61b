package io.cohort.node;

import io.cohort.config.CohortConfig;
import io.cohort.config.ConfigLoader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import io.cohort.session.SessionStoreProvider;

/** A node started in this JVM on ephemeral ports, in its own directory, for tests. */
final class TestNode implements AutoCloseable {

    static final String TOKEN = "test-admin-token-0123456789";

    final Path home;
    final CohortNode node;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private TestNode(Path home, CohortNode node) {
        this.home = home;
        this.node = node;
    }

    static TestNode start(Path home, String name, String clusterXml) throws Exception {
        return start(home, name, clusterXml, List.of());
    }

    static TestNode start(Path home, String name, String clusterXml, List<SessionStoreProvider> providers)
            throws Exception {
        return start(home, name, "", clusterXml, providers);
    }

    /** A node whose {@code <node>} element also has {@code nodeAttributes} (e.g. {@code trusted-proxies="none"}). */
    static TestNode start(Path home, String name, String nodeAttributes, String clusterXml,
            List<SessionStoreProvider> providers) throws Exception {
        return start(home, name, nodeAttributes, "", clusterXml, providers);
    }

    /** A node without a cluster whose {@code <admin>} element also has {@code adminAttributes} (e.g. {@code max-upload="1KiB"}). */
    static TestNode startWithAdmin(Path home, String name, String adminAttributes) throws Exception {
        return start(home, name, "", adminAttributes, "", List.of());
    }

    /** A node without a cluster on the given HTTP and admin ports (for tests that reach it while it starts). */
    static TestNode startOnPorts(Path home, String name, int httpPort, int adminPort) throws Exception {
        return startOnPorts(home, name, httpPort, adminPort, "", List.of());
    }

    /** A node on the given HTTP and admin ports, with a cluster. */
    static TestNode startOnPorts(Path home, String name, int httpPort, int adminPort, String clusterXml,
            List<SessionStoreProvider> providers) throws Exception {
        return start(home, name, httpPort, "", "port=\"" + adminPort + "\"", clusterXml, providers);
    }

    private static TestNode start(Path home, String name, String nodeAttributes, String adminAttributes, String clusterXml,
            List<SessionStoreProvider> providers) throws Exception {
        return start(home, name, 0, nodeAttributes, "port=\"0\" " + adminAttributes, clusterXml, providers);
    }

    private static TestNode start(Path home, String name, int httpPort, String nodeAttributes, String adminAttributes,
            String clusterXml, List<SessionStoreProvider> providers) throws Exception {
        Files.createDirectories(home.resolve("webapps"));
        String xml = """
                <cohort xmlns="urn:cohort:config:1">
                  <node name="%s" host="host-%s" http-port="%d" webapps="webapps" work-dir="work"
                        scan-interval="1s" graceful-stop="5s" %s/>
                  <admin token-env="COHORT_ADMIN_TOKEN" %s/>
                  %s
                </cohort>
                """.formatted(name, name, httpPort, nodeAttributes, adminAttributes, clusterXml);
        Path file = home.resolve("cohort.xml");
        Files.writeString(file, xml);
        CohortConfig config = ConfigLoader.parse(file.toString(),
                new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), home,
                Map.of("COHORT_ADMIN_TOKEN", TOKEN)::get);
        return new TestNode(home, CohortNode.start(config, providers));
    }

    Path webapps() {
        return home.resolve("webapps");
    }

    URI app(String path) {
        return node.self().httpAddress().resolve(path);
    }

    URI admin(String path) {
        return node.self().adminAddress().resolve(path);
    }

    HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The session cache of the application at this context path, reached through the node's Jetty server. */
    io.cohort.session.jetty.CohortSessionCache sessionCache(String contextPath) throws ReflectiveOperationException {
        java.lang.reflect.Field field = CohortNode.class.getDeclaredField("server");
        field.setAccessible(true);
        org.eclipse.jetty.server.Server server = (org.eclipse.jetty.server.Server) field.get(node);
        return server.getDescendants(org.eclipse.jetty.ee10.webapp.WebAppContext.class).stream()
                .filter(context -> context.getContextPath().equals(contextPath))
                .map(context -> (io.cohort.session.jetty.CohortSessionCache) context.getSessionHandler().getSessionCache())
                .findFirst().orElseThrow();
    }

    @Override
    public void close() {
        node.stop();
    }
}
