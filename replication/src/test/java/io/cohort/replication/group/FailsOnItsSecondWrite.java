package io.cohort.replication.group;

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ConcurrentModificationException;

/**
 * A session value whose second serialization fails, as one that another request changes in place while it is written
 * can (a list being added to); every other serialization succeeds.
 */
public final class FailsOnItsSecondWrite implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String content;
    private transient int writes;

    public FailsOnItsSecondWrite(String content) {
        this.content = content;
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        if (++writes == 2) {
            throw new ConcurrentModificationException("changed by another request while it was written");
        }
        out.defaultWriteObject();
    }

    @Override
    public String toString() {
        return content;
    }
}
