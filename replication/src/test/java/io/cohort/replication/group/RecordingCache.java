package io.cohort.replication.group;

import io.cohort.session.SessionCacheControl;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A node cache that remembers which sessions the store told it to evict. Thread-safe. */
public final class RecordingCache implements SessionCacheControl {

    private final List<String> evicted = new CopyOnWriteArrayList<>();

    @Override
    public void evict(String id) {
        evicted.add(id);
    }

    /** Ids evicted so far, in order. */
    public List<String> evicted() {
        return List.copyOf(evicted);
    }
}
