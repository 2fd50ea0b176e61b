/**
 * The session store SPI: the boundary between Jetty's session machinery and whatever keeps
 * HttpSession state beyond one node's memory (the local store, the replication engine, a database).
 *
 * <p>The node owns the live sessions (primary copies) in Jetty's session cache. It reports what
 * happens to them to a {@link io.cohort.session.SessionStore} through plain events, and asks the
 * store for a session it does not hold. Nothing in this package depends on Jetty or on the
 * Servlet API, so stores can be written and tested without a container.
 */
package io.cohort.session;
