package io.cohort.jpetstore.testing;

import java.net.URI;

/**
 * Where a running shop answers: an embedded Jetty in this module's tests, a Cohort node, or a
 * balancer in front of several nodes. Closing it stops what the test started.
 */
public interface ShopHost extends AutoCloseable {

    /** The shop's context path, the same on every host. */
    String CONTEXT_PATH = "/jpetstore";

    /** The base address, e.g. {@code http://127.0.0.1:8081/jpetstore}. */
    URI base();

    /** The absolute address of a path inside the shop, e.g. {@code uri("/cart")}. */
    default URI uri(String pathAndQuery) {
        return URI.create(base() + pathAndQuery);
    }
}
