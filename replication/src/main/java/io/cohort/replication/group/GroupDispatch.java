package io.cohort.replication.group;

import io.cohort.replication.engine.Dispatch;
import io.cohort.replication.engine.ReplicationMetrics;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Frames prepared for members of the group, sent together. A frame's target is a member name, or
 * {@code null} for one multicast to every other member.
 */
final class GroupDispatch implements Dispatch {

    record Frame(String target, byte[] bytes) {
    }

    private final List<Frame> frames;
    private final Messenger messenger;
    private final ReplicationMetrics metrics;
    private final int attributes;
    private final CompletableFuture<Void> applied;
    private final Consumer<String> missed;
    private final BooleanSupplier abandoned;

    /**
     * @param attributes the attributes a session change carries, or -1 if the frames are not a change
     * @param missed     told the target of a frame that could not be sent, or {@code null} when a multicast frame (to
     *                   every target at once) could not be sent
     * @param abandoned  run when the engine will not send the frames; says whether they are lost (false when it sent
     *                   them itself)
     */
    GroupDispatch(List<Frame> frames, Messenger messenger, ReplicationMetrics metrics, int attributes,
            CompletableFuture<Void> applied, Consumer<String> missed, BooleanSupplier abandoned) {
        this.frames = List.copyOf(frames);
        this.messenger = messenger;
        this.metrics = metrics;
        this.attributes = attributes;
        this.applied = applied;
        this.missed = missed;
        this.abandoned = abandoned;
    }

    @Override
    public void send() {
        metrics.messagesSent(frames.size());
        settle(frame -> frame.target() == null ? messenger.sendToAll(frame.bytes())
                : messenger.send(frame.target(), frame.bytes(), false));
    }

    /** The frames, in the order they must leave for each target. */
    List<Frame> frames() {
        return frames;
    }

    /**
     * Puts this dispatch's frames on their way through {@code transmission} (each one alone, or as part
     * of a bundle that already went) and records the outcome: the bytes sent, and the targets that
     * missed the change and need a full copy next time.
     */
    void settle(Transmission transmission) {
        long bytes = 0;
        for (Frame frame : frames) {
            if (transmission.sent(frame)) {
                bytes += frame.bytes().length;
            } else {
                missed.accept(frame.target());
            }
        }
        if (attributes >= 0) {
            metrics.sent(attributes, bytes);
        } else {
            metrics.sentBytes(bytes);
        }
    }

    /** Sends a frame, or tells how its sending went; false when it did not reach the channel. */
    @FunctionalInterface
    interface Transmission {
        boolean sent(Frame frame);
    }

    @Override
    public CompletableFuture<Void> applied() {
        return applied;
    }

    @Override
    public boolean abandon() {
        return abandoned.getAsBoolean();
    }

    @Override
    public boolean isEmpty() {
        return frames.isEmpty();
    }
}
