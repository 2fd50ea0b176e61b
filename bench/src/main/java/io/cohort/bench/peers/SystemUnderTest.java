package io.cohort.bench.peers;

import java.net.URI;
import java.util.List;

/**
 * A running system the bench drives: a front door (a balancer) and the backend node processes behind it,
 * all serving the JPetStore shop at {@value #SHOP_PATH}. {@link #close} stops everything it started,
 * whatever state it is in; it is idempotent.
 */
public interface SystemUnderTest extends AutoCloseable {

    /** The shop's context path on every system. */
    String SHOP_PATH = "/jpetstore";

    /** What is running, for reports, e.g. {@code tomcat-delta behind haproxy}. */
    String description();

    /** The front door's base URI, e.g. {@code http://127.0.0.1:8000}. */
    URI frontDoor();

    /** The shop through the front door. */
    default URI shop() {
        return URI.create(frontDoor() + SHOP_PATH);
    }

    /** The backend nodes, in order {@code n1..nN}. */
    List<BackendNode> nodes();

    @Override
    void close() throws InterruptedException;
}
