package io.cohort.jpetstore.testing;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test-only page that plays a session's backup copy: {@code GET ?save} serializes every attribute of the caller's
 * session, as a replicator ships them; {@code GET ?restore} makes the session hold exactly that copy again (same
 * session id), as when the node that served the requests since crashed before replicating them and the backup
 * took over. Answers 204, or 409 for a restore without a saved copy.
 */
public final class SessionSnapshotServlet extends HttpServlet {
    private final Map<String, Map<String, byte[]>> copies = new ConcurrentHashMap<>();

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        HttpSession session = request.getSession(false);
        if (session == null) {
            response.sendError(HttpServletResponse.SC_CONFLICT, "no session");
            return;
        }
        if (request.getParameter("save") != null) {
            Map<String, byte[]> copy = new LinkedHashMap<>();
            for (String name : Collections.list(session.getAttributeNames())) {
                copy.put(name, SessionAttributeRecorder.serialize(session.getAttribute(name)));
            }
            copies.put(session.getId(), copy);
        } else if (request.getParameter("restore") != null) {
            Map<String, byte[]> copy = copies.get(session.getId());
            if (copy == null) {
                response.sendError(HttpServletResponse.SC_CONFLICT, "nothing saved for this session");
                return;
            }
            for (String name : Collections.list(session.getAttributeNames())) {
                if (!copy.containsKey(name)) {
                    session.removeAttribute(name);
                }
            }
            for (Map.Entry<String, byte[]> attribute : copy.entrySet()) {
                session.setAttribute(attribute.getKey(), deserialize(attribute.getValue()));
            }
        } else {
            response.sendError(HttpServletResponse.SC_BAD_REQUEST, "?save or ?restore");
            return;
        }
        response.setStatus(HttpServletResponse.SC_NO_CONTENT);
    }

    /** With the web app's class loader (the request thread's), so the app sees its own classes. */
    private static Object deserialize(byte[] bytes) throws IOException {
        ClassLoader app = Thread.currentThread().getContextClassLoader();
        try (InputStream in = new ByteArrayInputStream(bytes); ObjectInputStream objects = new ObjectInputStream(in) {
            @Override
            protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
                return Class.forName(desc.getName(), false, app);
            }
        }) {
            return objects.readObject();
        } catch (ClassNotFoundException e) {
            throw new IOException(e);
        }
    }
}
