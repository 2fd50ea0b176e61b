package io.cohort.session.jetty;

import io.cohort.session.LiveSession;

/** Where {@link TrackedSessionData} reports attribute changes (the adapter). */
interface SessionEvents {

    /** Called under the session's lock, in the thread that changed the attribute. */
    void attributeChanged(LiveSession session, String name);
}
