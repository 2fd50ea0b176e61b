package io.cohort.cli.multihost;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cohort.cli.Poll;
import io.cohort.cli.multihost.NetworkNamespaces.Host;
import io.cohort.jpetstore.testing.ShopClient;
import io.cohort.jpetstore.testing.ShopClient.Page;
import io.cohort.jpetstore.testing.ShopHost;
import java.io.IOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cohort on several hosts, each host a Linux network namespace with its own address on a bridge:
 * namespaces 1-3 each run one shop node of a <b>peer/TCP</b> cluster over TLS (members found by <b>DNS</b>:
 * a dnsmasq in namespace 4 answers {@code peers.cohort.test} with the three addresses, through each
 * namespace's own {@code resolv.conf}) and one of a <b>multicast/UDP</b> cluster; namespace 4 runs
 * a balancer per cluster. Both clusters replicate every session to both other members (write-quota
 * 2, onRequestEnd, modifiedAttributes, async). Then, on both clusters at once: a node is SIGKILLed
 * and its customer carries on at a holder of the copy; namespace 3 is cut off (its link down) and
 * its customer carries on on the other side, changing the cart; the link comes back, the group
 * heals, and the cut-off node, asked with the customer's old cookie, does not serve its stale copy.
 *
 * <p>Needs root and {@code ip}; skips (saying why) only where namespaces cannot be made, and fails
 * when it runs as root with {@code ip} and still cannot make them. Everything it creates is named
 * after this JVM's pid and removed at the end, and leftovers of crashed runs are removed first.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class MultiHostInNamespacesTest {

    private static final Duration START = Duration.ofSeconds(120);
    private static final Duration CHANGE = Duration.ofSeconds(40);
    private static final String PEERS_NAME = "peers.cohort.test";
    private static final String ADMIN_TOKEN = "namespace-test-admin-token";
    private static final String SECRET = "namespace-test-cluster-secret";
    private static final String MEMBERSHIP_CHANGES = "cohort_cluster_membership_changes_total";
    private static final String FAILURE_DETECTOR_CONNECTED = "cohort_cluster_failure_detector_connected";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** Short failure detection and merge intervals (placeholders of the built-in JGroups stacks). */
    private static final List<String> GROUP_TUNING = List.of("-Dcohort.fd.timeout=10s", "-Dcohort.fd.interval=2s",
            "-Dcohort.verify_suspect.timeout=2s", "-Dcohort.merge.min_interval=1s", "-Dcohort.merge.max_interval=3s");

    @TempDir
    static Path dir;
    private NetworkNamespaces lab;
    private final List<NamespacedProcess> processes = new ArrayList<>();
    private final Map<String, Cluster> clusters = new LinkedHashMap<>();
    /** Per node: its count of member list changes once every group had formed. */
    private final Map<String, Double> membershipChangesWhenFormed = new LinkedHashMap<>();

    /** One replicating cluster: its nodes (one per namespace 1-3) and its balancer in namespace 4. */
    private record Cluster(String name, int httpPort, int adminPort, URI balancer, URI balancerHealth,
            List<Node> nodes) {

        Node node(int number) {
            return nodes.get(number - 1);
        }

        ShopHost shop() {
            URI base = URI.create(balancer + ShopHost.CONTEXT_PATH);
            return new ShopHost() {
                @Override
                public URI base() {
                    return base;
                }

                @Override
                public void close() {
                }
            };
        }
    }

    /** One node: its name (session route), process and addresses. */
    private record Node(String name, NamespacedProcess process, URI http, URI admin) {
    }

    @BeforeAll
    @Timeout(value = 200, unit = TimeUnit.SECONDS)
    void startTwoClustersOnThreeHostsWithBalancersOnAFourth() throws Exception {
        Optional<String> why = NetworkNamespaces.unavailable();
        if (why.isPresent()) {
            String message = "MultiHostInNamespacesTest cannot run: " + why.get();
            System.err.println("*** " + message + " ***");
            if (NetworkNamespaces.isRoot() && NetworkNamespaces.ipCommand().isPresent()) {
                Assertions.fail(message + " (running as root with `ip` present, so this is an error, not a skip)");
            }
            Assumptions.abort(message);
        }
        Path dnsmasq = NetworkNamespaces.executable("dnsmasq").orElseThrow(() -> new AssertionError(
                "MultiHostInNamespacesTest needs dnsmasq for DNS discovery: apt-get install dnsmasq-base (.ci/run does)"));
        lab = NetworkNamespaces.create(4);
        Host balancerHost = lab.host(4);
        startNameServer(dnsmasq, balancerHost);

        Path war = Path.of("target/test-wars/jpetstore.war").toAbsolutePath();
        Path webapps = Files.createDirectories(dir.resolve("webapps"));
        Files.copy(war, webapps.resolve("jpetstore.war"));

        clusters.put("tcp", startCluster("tcp", 't', 8081, 9081, 8000, 9000, webapps, k ->
                "<peer bind-addr=\"%s\" start-port=\"7800\" range=\"1\" discovery=\"dns\" dns-query=\"%s\"/>"
                        .formatted(lab.host(k).address(), PEERS_NAME)));
        clusters.put("udp", startCluster("udp", 'u', 8082, 9082, 8001, 9001, webapps, k ->
                "<multicast ip=\"239.255.77.1\" port=\"45599\" bind-addr=\"%s\" ttl=\"1\"/>"
                        .formatted(lab.host(k).address())));

        for (Cluster cluster : clusters.values()) {
            for (Node node : cluster.nodes()) {
                awaitMembers(node, 3, START);
            }
            Poll.until(START, cluster.name() + " balancer sees every node up", () -> membersUp(cluster) == 3);
        }
        for (Cluster cluster : clusters.values()) {
            for (Node node : cluster.nodes()) {
                if (cluster.name().equals("udp")) {
                    // each host's socket failure detector reached its neighbour's on the same port of another address
                    // (the peer cluster runs over TLS, <security>'s default there, which leaves FD_SOCK2 out)
                    Poll.until(CHANGE, node.name() + "'s socket failure detector connected",
                            () -> metricValue(node, FAILURE_DETECTOR_CONNECTED) == 1);
                }
                membershipChangesWhenFormed.put(node.name(), metricValue(node, MEMBERSHIP_CHANGES));
            }
        }
        progress("both clusters formed and their balancers see every node");
    }

    private void startNameServer(Path dnsmasq, Host server) throws IOException {
        Path hosts = dir.resolve("peers.hosts");
        StringBuilder lines = new StringBuilder();
        for (int k = 1; k <= 3; k++) {
            lines.append(lab.host(k).address()).append(' ').append(PEERS_NAME).append('\n');
        }
        Files.writeString(hosts, lines);
        processes.add(NamespacedProcess.start(lab, server, "dnsmasq", List.of(dnsmasq.toString(),
                "--keep-in-foreground", "--no-resolv", "--no-hosts", "--log-queries", "--log-facility=-",
                "--addn-hosts=" + hosts, "--listen-address=" + server.address(), "--bind-interfaces",
                "--port=53", "--user=root", "--pid-file=" + dir.resolve("dnsmasq.pid")), Map.of(),
                dir.resolve("dnsmasq.log")));
        for (Host host : lab.hosts()) {
            lab.useNameServer(host, server.address());
        }
    }

    private interface ProtocolXml {
        String of(int namespace);
    }

    private Cluster startCluster(String name, char prefix, int httpPort, int adminPort, int balancerPort,
            int balancerAdminPort, Path webapps, ProtocolXml protocol) throws IOException {
        List<Node> nodes = new ArrayList<>();
        StringBuilder members = new StringBuilder();
        for (int k = 1; k <= 3; k++) {
            Host host = lab.host(k);
            String node = prefix + Integer.toString(k);
            Path home = Files.createDirectories(dir.resolve(node));
            Path config = home.resolve("cohort.xml");
            Files.writeString(config, """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <cohort xmlns="urn:cohort:config:1">
                      <node name="%1$s" host="%2$s" bind-addr="%3$s" http-port="%4$d" webapps="%5$s" work-dir="work"
                            scan-interval="0s" graceful-stop="5s"/>
                      <admin bind-addr="%3$s" port="%6$d" token-env="COHORT_ADMIN_TOKEN"/>
                      <datasource name="jdbc/jpetstore" url="jdbc:h2:mem:jpetstore;DB_CLOSE_DELAY=-1" user="sa"/>
                      <cluster name="%7$s" write-quota="2" cache-miss-delay="2000ms">
                        <replication-policy trigger="onRequestEnd" scope="modifiedAttributes"/>
                        <protocol>%8$s</protocol>
                        <security secret-env="COHORT_CLUSTER_SECRET"/>
                      </cluster>
                    </cohort>
                    """.formatted(node, host.namespace(), host.address(), httpPort, webapps, adminPort, name,
                    protocol.of(k)));
            NamespacedProcess process = NamespacedProcess.cohort(lab, host, node, GROUP_TUNING,
                    List.of("node", "--config", config.toString(), "--exit-with-parent"),
                    Map.of("COHORT_ADMIN_TOKEN", ADMIN_TOKEN, "COHORT_CLUSTER_SECRET", SECRET), home.resolve("node.log"));
            processes.add(process);
            nodes.add(new Node(node, process, URI.create("http://" + host.address() + ":" + httpPort),
                    URI.create("http://" + host.address() + ":" + adminPort)));
            members.append("""
                    <balancer-member name="%s" host="%s" url="http://%s:%d" health-url="http://%s:%d/health"/>
                    """.formatted(node, host.namespace(), host.address(), httpPort, host.address(), adminPort));
        }
        Host balancerHost = lab.host(4);
        Path config = dir.resolve("balancer-" + name + ".xml");
        Files.writeString(config, """
                <?xml version="1.0" encoding="UTF-8"?>
                <cohort xmlns="urn:cohort:config:1">
                  <balancer name="lb-%s" host="%s" bind-addr="%s" port="%d" admin-bind-addr="%s" admin-port="%d"
                            policy="roundrobin" connect-timeout="1s" request-timeout="30s">
                    <health path="/health" interval="1s" timeout="1s" fall="2" rise="1"/>
                    %s
                  </balancer>
                </cohort>
                """.formatted(name, balancerHost.namespace(), balancerHost.address(), balancerPort,
                balancerHost.address(), balancerAdminPort, members));
        processes.add(NamespacedProcess.cohort(lab, balancerHost, "balancer-" + name, List.of(),
                List.of("balancer", "--config", config.toString()), Map.of(), dir.resolve("balancer-" + name + ".log")));
        return new Cluster(name, httpPort, adminPort, URI.create("http://" + balancerHost.address() + ":" + balancerPort),
                URI.create("http://" + balancerHost.address() + ":" + balancerAdminPort + "/health"), nodes);
    }

    private final long started = System.nanoTime();

    /** A line on the test's output with the seconds since the class started: where the time goes. */
    private void progress(String what) {
        System.out.printf("[multi-host] %5.1f s  %s%n", (System.nanoTime() - started) / 1e9, what);
    }

    @AfterAll
    void removeEverything() {
        for (NamespacedProcess process : processes) {
            try {
                process.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (lab != null) {
            lab.close();
        }
        progress("processes stopped, namespaces and bridge removed");
    }

    @Test
    void sessionsReplicateFailOverAndHealAcrossHostsOverPeerAndMulticast() throws Exception {
        try {
            scenario();
        } catch (AssertionError | Exception e) {
            StringBuilder logs = new StringBuilder();
            processes.forEach(p -> logs.append("\n---- ").append(p.logTail()));
            throw new AssertionError(e.getMessage() + "\nlogs:" + logs, e);
        }
    }

    private void scenario() throws Exception {
        // the peer members found each other through the name server: each namespace asked it
        String queries = Files.readString(dir.resolve("dnsmasq.log"));
        for (int k = 1; k <= 3; k++) {
            assertThat(queries).as("namespace " + k + " looked the peers up by DNS")
                    .contains("query[A] " + PEERS_NAME + " from " + lab.host(k).address());
        }

        // every node's first shop request loads its data set and compiles pages: all at once
        List<CompletableFuture<HttpResponse<String>>> warmUps = new ArrayList<>();
        for (Cluster cluster : clusters.values()) {
            for (Node node : cluster.nodes()) {
                warmUps.add(HTTP.sendAsync(HttpRequest.newBuilder(URI.create(node.http() + ShopHost.CONTEXT_PATH + "/signon"))
                        .timeout(START).GET().build(), HttpResponse.BodyHandlers.ofString()));
            }
        }
        CompletableFuture.allOf(warmUps.toArray(CompletableFuture[]::new)).get(START.toSeconds(), TimeUnit.SECONDS);

        // one customer per node of each cluster, each with a cart (both clusters at once)
        Map<String, CompletableFuture<Map<String, Customer>>> signingOn = new LinkedHashMap<>();
        for (Cluster cluster : clusters.values()) {
            signingOn.put(cluster.name(), CompletableFuture.supplyAsync(() -> customersOnEveryNode(cluster)));
        }
        Map<String, Map<String, Customer>> customers = new LinkedHashMap<>();
        for (Map.Entry<String, CompletableFuture<Map<String, Customer>>> cluster : signingOn.entrySet()) {
            customers.put(cluster.getKey(), cluster.getValue().get(CHANGE.toSeconds(), TimeUnit.SECONDS));
        }

        progress("a customer with a cart on every node");
        // replicated: every node holds copies of the two sessions the others own
        for (Cluster cluster : clusters.values()) {
            for (Node node : cluster.nodes()) {
                Poll.until(CHANGE, node.name() + " holds copies of the other nodes' sessions",
                        () -> metricValue(node, "cohort_replication_sessions_backup") >= 2);
            }
        }

        progress("every node holds copies of the others' sessions");
        // nothing joined or left since the groups formed: no member was suspected under the start-up load
        for (Cluster cluster : clusters.values()) {
            for (Node node : cluster.nodes()) {
                assertThat(metricValue(node, MEMBERSHIP_CHANGES)).as(node.name() + ": member list changes since the group formed")
                        .isEqualTo(membershipChangesWhenFormed.get(node.name()));
            }
        }
        // SIGKILL of node 1: its customer carries on at a holder of the copy
        for (Cluster cluster : clusters.values()) {
            cluster.node(1).process().kill();
        }
        for (Cluster cluster : clusters.values()) {
            Customer customer = customers.get(cluster.name()).get(cluster.node(1).name());
            Page after = customer.client.get("/cart");
            assertThat(after.status()).as(cluster.name() + " after the kill").isEqualTo(200);
            assertThat(after.header("X-Cohort-Routed")).matches("[tu][23]; reason=backup");
            assertThat(after.textOf("cart")).contains(customer.item);
            assertThat(after.body()).contains("Sign off");
        }

        progress("node 1 killed; its customers carried on at a holder");
        // namespace 3 cut off: node 2 is on its own side, node 3 on the other
        Host third = lab.host(3);
        Map<String, String> oldCookies = new LinkedHashMap<>();
        Map<String, Double> ownedBefore = new LinkedHashMap<>();
        for (Cluster cluster : clusters.values()) {
            oldCookies.put(cluster.name(), customers.get(cluster.name()).get(cluster.node(3).name()).sessionCookie());
            ownedBefore.put(cluster.name(), metricValue(cluster.node(3), "cohort_replication_sessions_owned"));
        }
        lab.cut(third);
        for (Cluster cluster : clusters.values()) {
            awaitMembers(cluster.node(2), 1, CHANGE);
        }
        for (Cluster cluster : clusters.values()) {
            Customer customer = customers.get(cluster.name()).get(cluster.node(3).name());
            Page during = customer.client.get("/cart");
            assertThat(during.status()).as(cluster.name() + " during the partition").isEqualTo(200);
            assertThat(during.header("X-Cohort-Routed")).isEqualTo(cluster.node(2).name() + "; reason=backup");
            assertThat(during.textOf("cart")).contains(customer.item);
            Page added = customer.client.post("/cart/add", "itemId", "EST-20");
            assertThat(added.textOf("cart")).contains(customer.item, "EST-20");
        }

        progress("namespace 3 cut off; its customers carried on on the other side");
        // the link comes back: the group heals
        lab.restore(third);
        for (Cluster cluster : clusters.values()) {
            awaitMembers(cluster.node(2), 2, CHANGE);
            awaitMembers(cluster.node(3), 2, CHANGE);
        }

        progress("link restored; the groups merged");
        // node 3 learns from the merged group that the session went on without it, and steps back
        for (Cluster cluster : clusters.values()) {
            Node third3 = cluster.node(3);
            double before = ownedBefore.get(cluster.name());
            Poll.until(CHANGE, third3.name() + " steps back from the session that went on elsewhere",
                    () -> metricValue(third3, "cohort_replication_sessions_owned") <= before - 1);
        }
        // asked with the customer's cookie from before the partition, it serves the current cart
        for (Cluster cluster : clusters.values()) {
            Customer customer = customers.get(cluster.name()).get(cluster.node(3).name());
            HttpResponse<String> stale = HTTP.send(HttpRequest.newBuilder(
                            URI.create(cluster.node(3).http() + ShopHost.CONTEXT_PATH + "/cart"))
                    .header("Cookie", oldCookies.get(cluster.name())).timeout(Duration.ofSeconds(20)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(stale.statusCode()).as(cluster.name() + ": the healed node answers").isEqualTo(200);
            assertThat(stale.body()).as(cluster.name() + ": no stale cart at the healed node").contains("EST-20");
            Page current = customer.client.get("/cart");
            assertThat(current.textOf("cart")).contains(customer.item, "EST-20");
        }
        progress("the healed node served the current cart, not its stale copy");
    }

    /** A signed-on customer with one item in the cart, and the node that owns the session. */
    private record Customer(ShopClient client, CookieManager cookies, String item, String owner) {

        String sessionCookie() {
            return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals("JSESSIONID"))
                    .map(HttpCookie::toString).findFirst().orElseThrow();
        }
    }

    private Map<String, Customer> customersOnEveryNode(Cluster cluster) {
        Map<String, Customer> byOwner = new LinkedHashMap<>();
        for (int attempt = 0; attempt < 12 && byOwner.size() < cluster.nodes().size(); attempt++) {
            CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL);
            ShopClient client = new ShopClient(cluster.shop(), cookies);
            client.signOn("j2ee", "j2ee");
            String item = "EST-" + (attempt + 1);
            Page cart = client.post("/cart/add", "itemId", item);
            assertThat(cart.status()).isEqualTo(200);
            assertThat(cart.textOf("cart")).contains(item);
            String owner = cart.header("X-Cohort-Routed").split(";")[0];
            byOwner.putIfAbsent(owner, new Customer(client, cookies, item, owner));
        }
        assertThat(byOwner.keySet()).as(cluster.name() + ": a customer on every node")
                .containsExactlyInAnyOrderElementsOf(cluster.nodes().stream().map(Node::name).toList());
        return byOwner;
    }

    private static void awaitMembers(Node node, int members, Duration within) throws InterruptedException {
        Poll.until(within, node.name() + " sees " + members + " member(s)",
                () -> health(node.admin().resolve("/health")).path("members").asInt() == members);
    }

    private static long membersUp(Cluster cluster) throws Exception {
        JsonNode members = health(cluster.balancerHealth()).path("members");
        long up = 0;
        for (JsonNode member : members) {
            up += member.path("up").asBoolean() ? 1 : 0;
        }
        return up;
    }

    private static JsonNode health(URI uri) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(response.body());
    }

    /** The value of a gauge or counter in the node's {@code /metrics}, summed over its tags (applications). */
    private static double metricValue(Node node, String name) throws Exception {
        String metrics = HTTP.send(HttpRequest.newBuilder(node.admin().resolve("/metrics")).timeout(Duration.ofSeconds(2))
                .GET().build(), HttpResponse.BodyHandlers.ofString()).body();
        double sum = 0;
        for (String line : metrics.split("\n")) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }
}
