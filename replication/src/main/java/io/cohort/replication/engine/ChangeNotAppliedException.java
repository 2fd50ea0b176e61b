package io.cohort.replication.engine;

/**
 * How {@link Dispatch#applied()} fails: a target of the change is known not to have applied it, because sending to it
 * failed, the change was abandoned (the asynchronous queue was full), or the database did not write it. The transport
 * has already counted the failure and will bring the target up to date with a full copy of the session's next change;
 * the caller only learns that this change did not arrive (a synchronous request that carries on, a stopping node
 * that reports how many of its sessions were handed over).
 */
public final class ChangeNotAppliedException extends Exception {

    private static final long serialVersionUID = 1L;

    public ChangeNotAppliedException(String message) {
        super(message, null, false, false);
    }
}
