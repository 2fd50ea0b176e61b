package io.cohort.session;

/**
 * What a store may ask of the node's in-memory session cache. Thread-safe; may be called from any
 * thread, including a store's own (e.g. a membership or message thread).
 */
public interface SessionCacheControl {

    /**
     * Drops a session from this node's memory without invalidating it: no listeners run and the
     * store is not told. A store calls it when another node took the session over, so this node
     * never serves its now-stale copy; the next request for the session here calls
     * {@link SessionStore#load}. A session a request is using right now is dropped once that request
     * has finished with it. Unknown ids are ignored.
     */
    void evict(String id);

    /** A cache that holds nothing (for stores tested without a node). */
    SessionCacheControl NONE = id -> { };
}
