package io.cohort.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HaproxyConfigTest {

    private static BackendNode node(String name, int port, int adminPort) {
        return new BackendNode(name, URI.create("http://127.0.0.1:" + port),
                URI.create("http://127.0.0.1:" + adminPort + "/health"), 1, Optional.empty());
    }

    @Test
    void routesEachSessionToTheServerNamedByItsCookieSuffixAndChecksHealthOnTheAdminPort() {
        String cfg = new HaproxyConfig(26500, List.of(node("n1", 26501, 26601), node("n2", 26502, 26602))).render();

        assertThat(cfg).contains("bind 127.0.0.1:26500", "balance roundrobin", "option redispatch",
                "option httpchk GET /health",
                "use-server n1 if { req.cook(JSESSIONID),field(2,.) -m str n1 }",
                "use-server n2 if { req.cook(JSESSIONID),field(2,.) -m str n2 }",
                "server n1 127.0.0.1:26501 check addr 127.0.0.1 port 26601",
                "server n2 127.0.0.1:26502 check addr 127.0.0.1 port 26602",
                "http-response set-header X-Served-By %s");
    }

    @Test
    void refusesServersWhoseHealthPathsDiffer() {
        BackendNode other = new BackendNode("n2", URI.create("http://127.0.0.1:2"),
                URI.create("http://127.0.0.1:2/status"), 1, Optional.empty());

        assertThatThrownBy(() -> new HaproxyConfig(26500, List.of(node("n1", 1, 3), other)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("share one path");
    }
}
