package io.cohort.session.jetty;

import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionListener;
import org.eclipse.jetty.ee10.servlet.SessionHandler;
import org.eclipse.jetty.session.ManagedSession;

/**
 * Marks a session as removed as soon as its invalidation begins. Jetty tells session listeners that a session is being
 * destroyed before it clears the session's attributes, and only afterwards deletes it from the cache (where
 * {@link CohortSessionCache#delete} marks it too): without this mark every attribute the invalidation clears would
 * reach the store as a change, and with {@code onSetAttribute} be replicated, one message each, just before the
 * removal that makes them moot.
 */
public final class InvalidationListener implements HttpSessionListener {

    @Override
    public void sessionDestroyed(HttpSessionEvent event) {
        ManagedSession session = SessionHandler.ServletSessionApi.getSession(event.getSession());
        if (session != null && session.getSessionData() instanceof TrackedSessionData tracked) {
            tracked.markRemoved();
        }
    }
}
