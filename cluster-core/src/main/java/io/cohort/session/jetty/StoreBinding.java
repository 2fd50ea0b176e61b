package io.cohort.session.jetty;

import io.cohort.session.SessionStore;
import io.cohort.session.SessionStoreContext;

/**
 * The store an application's sessions are bound to, decided when the application starts (only then
 * are its class loader and {@code <distributable/>} flag known).
 */
public record StoreBinding(SessionStore store, SessionStoreContext context) {

    /** Decides the binding for an application that is starting. */
    @FunctionalInterface
    public interface Binder {
        StoreBinding bind() throws Exception;
    }
}
