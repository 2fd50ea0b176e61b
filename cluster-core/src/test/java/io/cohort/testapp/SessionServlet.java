package io.cohort.testapp;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.Collections;
import java.util.TreeMap;

/**
 * Test application servlet for sessions. {@code ?set=name&value=v} stores a string,
 * {@code ?item=name&value=v} a {@link CartItem} (a class of the application's own),
 * {@code ?unserializable=name} tries to store a non-serializable object (answers 400 with the
 * container's message when refused), {@code ?changeId} changes the session id (as a sign-on does),
 * {@code ?invalidate} invalidates, {@code ?meta} adds a {@code lastAccessedTime=millis} line (what
 * {@link HttpSession#getLastAccessedTime()} answers during this request), {@code ?append=name&value=v} adds v to
 * the list under that name in place (no {@code setAttribute} once the list exists), {@code ?afterCommit=name} sets
 * that attribute to {@code after-commit} once the answer has been committed; every answer lists the session's
 * attributes as {@code name=value} lines. {@code ?ended} (no session needed) lists the sessions this deployment heard
 * the end of ({@link SessionEndRecorder}).
 */
public class SessionServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        if (request.getParameter("ended") != null) {
            response.getWriter().print(SessionEndRecorder.ended());
            return;
        }
        HttpSession session = request.getSession(true);
        if (request.getParameter("invalidate") != null) {
            session.invalidate();
            response.getWriter().print("invalidated");
            return;
        }
        if (request.getParameter("changeId") != null) {
            request.changeSessionId();
            session = request.getSession(false);
        }
        String maxInactive = request.getParameter("maxInactive");
        if (maxInactive != null) {
            session.setMaxInactiveInterval(Integer.parseInt(maxInactive));
        }
        String name = request.getParameter("set");
        if (name != null) {
            try {
                session.setAttribute(name, request.getParameter("value"));
            } catch (IllegalArgumentException e) {
                response.setStatus(400);
                response.getWriter().print("refused: " + e.getMessage());
                return;
            }
        }
        String item = request.getParameter("item");
        if (item != null) {
            session.setAttribute(item, new CartItem(request.getParameter("value")));
        }
        String unserializable = request.getParameter("unserializable");
        if (unserializable != null) {
            try {
                session.setAttribute(unserializable, new Object());
            } catch (IllegalArgumentException e) {
                response.setStatus(400);
                response.getWriter().print("refused: " + e.getMessage());
                return;
            }
        }
        String append = request.getParameter("append");
        if (append != null) {
            @SuppressWarnings("unchecked")
            java.util.List<String> list = (java.util.List<String>) session.getAttribute(append);
            if (list == null) {
                session.setAttribute(append, new java.util.ArrayList<>(java.util.List.of(request.getParameter("value"))));
            } else {
                list.add(request.getParameter("value")); // in place: the session is not told
            }
        }
        var attributes = new TreeMap<String, Object>();
        for (String key : Collections.list(session.getAttributeNames())) {
            attributes.put(key, session.getAttribute(key));
        }
        response.getWriter().print("id=" + session.getId() + "\n");
        if (request.getParameter("meta") != null) {
            response.getWriter().print("lastAccessedTime=" + session.getLastAccessedTime() + "\n");
        }
        attributes.forEach((k, v) -> {
            try {
                response.getWriter().print(k + "=" + v + "\n");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        String afterCommit = request.getParameter("afterCommit");
        if (afterCommit != null) {
            response.flushBuffer();
            session.setAttribute(afterCommit, "after-commit");
        }
    }
}
