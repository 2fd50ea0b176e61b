package io.cohort.replication.group;

import io.cohort.replication.engine.Dispatch;
import io.cohort.replication.engine.ReplicationMetrics;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
    private final Runnable abandoned;

    /**
     * @param attributes the attributes a session change carries, or -1 if the frames are not a change
     * @param missed     told the target of a frame that could not be sent
     * @param abandoned  run when the frames will not be sent
     */
    GroupDispatch(List<Frame> frames, Messenger messenger, ReplicationMetrics metrics, int attributes,
            CompletableFuture<Void> applied, Consumer<String> missed, Runnable abandoned) {
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
        long bytes = 0;
        for (Frame frame : frames) {
            boolean sent = frame.target() == null ? messenger.sendToAll(frame.bytes())
                    : messenger.send(frame.target(), frame.bytes(), false);
            if (sent) {
                bytes += frame.bytes().length;
            } else if (frame.target() != null) {
                missed.accept(frame.target());
            }
        }
        if (attributes >= 0) {
            metrics.sent(attributes, bytes);
        } else {
            metrics.sentBytes(bytes);
        }
    }

    @Override
    public CompletableFuture<Void> applied() {
        return applied;
    }

    @Override
    public void abandon() {
        abandoned.run();
    }

    @Override
    public boolean isEmpty() {
        return frames.isEmpty();
    }
}
