package io.cohort.bench.tomcat;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The node's cluster traffic in the Prometheus text format ({@code GET /metrics}), for the bench's node
 * sampler: {@value #BYTES}{@code {direction="sent"|"received"}}, the bytes {@link ByteCountingInterceptor}
 * counted on the Tribes channel since the node started (zero without a cluster). It never creates a session.
 */
final class MetricsServlet extends HttpServlet {

    /** The counter's name. */
    static final String BYTES = "tomcat_tribes_bytes_total";

    private static final long serialVersionUID = 1L;

    private final transient ChannelBytes bytes;

    MetricsServlet(ChannelBytes bytes) {
        this.bytes = bytes;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain; version=0.0.4; charset=utf-8");
        response.setHeader("Cache-Control", "no-store");
        write(response.getWriter());
    }

    /** Writes the counters' exposition. */
    void write(java.io.PrintWriter out) {
        out.write("# HELP " + BYTES + " Bytes of cluster channel messages (data packages), per direction\n"
                + "# TYPE " + BYTES + " counter\n"
                + BYTES + "{direction=\"sent\"} " + bytes.sent() + "\n"
                + BYTES + "{direction=\"received\"} " + bytes.received() + "\n");
        out.flush();
    }
}
