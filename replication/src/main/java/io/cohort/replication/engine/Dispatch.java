package io.cohort.replication.engine;

import java.util.concurrent.CompletableFuture;

/**
 * A change a {@link SessionTransport} has recorded and encoded but not yet sent. The engine either
 * sends it (now, in the request thread, or later from its asynchronous queue) or abandons it; it
 * never does both. Sending order per session is the order in which dispatches were prepared.
 */
public interface Dispatch {

    /** A dispatch with nothing to send, already applied. */
    Dispatch NONE = new Dispatch() {
        @Override
        public void send() {
        }

        @Override
        public CompletableFuture<Void> applied() {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public boolean abandon() {
            return false;
        }

        @Override
        public boolean isEmpty() {
            return true;
        }
    };

    /** Hands the messages to the transport; may block briefly under flow control; never throws. */
    void send();

    /**
     * Completes when every target reported having applied the change, or at once when no
     * acknowledgement was asked for or there is no target. Targets that leave the group count as
     * done. Completes exceptionally with {@link ChangeNotAppliedException} when a target is known to have
     * missed the change (its send failed, the change was abandoned, the write failed), once the other targets have
     * answered as well (so that those able to apply it have, when the caller learns of the miss). May never
     * complete when a target neither answers nor leaves: the engine bounds its wait, and cancels the
     * future when it gives up so the transport forgets the change.
     */
    CompletableFuture<Void> applied();

    /**
     * The engine will not send the change (the asynchronous queue was full): the transport must assume its
     * targets missed it and bring them up to date with a full copy next time, unless it cannot let it go at all
     * and sends it itself (a removal, which a holder that missed it would keep as a copy).
     *
     * @return whether the change is lost (counted as dropped), false when the transport sent it anyway
     */
    boolean abandon();

    /** Whether there is nothing to send. */
    boolean isEmpty();
}
