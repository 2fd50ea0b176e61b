package io.cohort.testapp;

import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionListener;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;

/**
 * Test application listener: records every session the application hears the end of, as {@code id{name=value, …}}
 * with the attributes the session still had. Each deployment loads its own copy of this class, so what it recorded
 * is that deployment's; {@link SessionServlet} lists it under {@code ?ended}.
 */
public class SessionEndRecorder implements HttpSessionListener {

    private static final List<String> ENDED = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void sessionDestroyed(HttpSessionEvent event) {
        HttpSession session = event.getSession();
        var attributes = new TreeMap<String, Object>();
        for (String name : Collections.list(session.getAttributeNames())) {
            attributes.put(name, session.getAttribute(name));
        }
        ENDED.add(session.getId() + attributes);
    }

    /** The sessions ended so far, one per line. */
    static String ended() {
        synchronized (ENDED) {
            return String.join("\n", ENDED);
        }
    }
}
