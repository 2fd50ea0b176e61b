package io.cohort.jpetstore.testing;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Collections;

/**
 * Test-only page that lists the caller's session attributes as lines of
 * {@code name size same|CHANGED-WITHOUT-SET}, comparing each current value with what was last set.
 */
public final class SessionProbeServlet extends HttpServlet {
    private final SessionAttributeRecorder recorder;

    public SessionProbeServlet(SessionAttributeRecorder recorder) {
        this.recorder = recorder;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain;charset=UTF-8");
        PrintWriter out = response.getWriter();
        HttpSession session = request.getSession(false);
        if (session == null) {
            return;
        }
        for (String name : Collections.list(session.getAttributeNames())) {
            Object value = session.getAttribute(name);
            out.println(name + " " + SessionAttributeRecorder.serialize(value).length + " "
                    + (recorder.matchesLastSet(session, name, value) ? "same" : "CHANGED-WITHOUT-SET"));
        }
    }
}
