package io.cohort.replication.group;

import io.cohort.replication.engine.Batching;
import io.cohort.replication.engine.CallerSends;
import io.cohort.replication.engine.Dispatch;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.wire.FrameBundle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sends what an asynchronous send lane took from its queue in one go: the frames of all those
 * dispatches, grouped by target, leave as one group message per target ({@link FrameBundle}), in
 * queue order, so each session's changes still arrive in the order they were made. A lane that woke
 * for a change sleeps for the {@code flush-interval} (default 2 ms) and then takes what else arrived,
 * so a busy node pays one wake-up of the lane, one of the group's sender and one of the receiver,
 * and the group's per-message work (sequence numbers, encryption), per bundle instead of per change.
 * On this project's 2-core VMs the thread hand-offs were the largest single cost of replicating a
 * change (see {@code bench/README.md}, "What a replicated change costs").
 *
 * <p>A bundle grows to at most {@link #MAX_BUNDLE_BYTES} (below the stack's fragmentation size) and
 * {@link FrameBundle#MAX_FRAMES} frames; more goes out in further bundles. When a bundle cannot be
 * sent, every change in the group meant for that target counts as missed, and the target gets a full
 * copy of those sessions next time. Thread-safe (stateless but for the metrics).
 */
final class FrameBundler {

    /** The largest bundle, in bytes of frames; a single larger frame still goes, alone. */
    static final int MAX_BUNDLE_BYTES = 48 * 1024;

    private final Messenger messenger;
    private final ReplicationMetrics metrics;
    private final int maxDispatches;
    private final Duration flushInterval;
    private final CallerSends callerSends;

    /**
     * @param maxDispatches the most dispatches a lane hands over at once ({@code batch-size}; 1: no bundling)
     * @param flushInterval how long a lane that woke sleeps before it takes what else was queued
     *     ({@code flush-interval}; zero: only what is queued already)
     * @param callerSends when a request thread sends a change itself instead of its lane
     *     ({@link GroupOptions#callerSends()}): the channel's send does not wait on the network, flow control aside
     */
    FrameBundler(Messenger messenger, ReplicationMetrics metrics, int maxDispatches, Duration flushInterval,
            CallerSends callerSends) {
        this.messenger = messenger;
        this.metrics = metrics;
        this.maxDispatches = maxDispatches;
        this.flushInterval = flushInterval;
        this.callerSends = callerSends;
    }

    /** How the transport's asynchronous lanes group dispatches ({@link Batching}). */
    Batching batching() {
        return maxDispatches <= 1
                ? Batching.oneAtATime(callerSends)
                : new Batching(maxDispatches, flushInterval, this::send, callerSends);
    }

    /** Sends the group's frames bundled per target and settles every dispatch; never throws. */
    void send(List<Dispatch> dispatches) {
        List<GroupDispatch> pending = new ArrayList<>(dispatches.size());
        for (Dispatch dispatch : dispatches) {
            if (dispatch instanceof GroupDispatch group) {
                pending.add(group);
            } else {
                flush(pending); // keep the queue order around a dispatch this class cannot open
                pending.clear();
                dispatch.send();
            }
        }
        flush(pending);
    }

    private void flush(List<GroupDispatch> dispatches) {
        if (dispatches.isEmpty()) {
            return;
        }
        Map<String, List<byte[]>> byTarget = new LinkedHashMap<>(); // a null target is every other member
        for (GroupDispatch dispatch : dispatches) {
            for (GroupDispatch.Frame frame : dispatch.frames()) {
                byTarget.computeIfAbsent(frame.target(), target -> new ArrayList<>()).add(frame.bytes());
            }
        }
        Map<String, Boolean> delivered = new HashMap<>();
        byTarget.forEach((target, frames) -> delivered.put(target, sendBundles(target, frames)));
        for (GroupDispatch dispatch : dispatches) {
            dispatch.settle(frame -> delivered.get(frame.target()));
        }
    }

    /** Whether every bundle of {@code frames} reached the channel. */
    private boolean sendBundles(String target, List<byte[]> frames) {
        boolean all = true;
        int start = 0;
        while (start < frames.size()) {
            int end = start;
            int bytes = 0;
            while (end < frames.size() && end - start < FrameBundle.MAX_FRAMES
                    && (end == start || bytes + frames.get(end).length <= MAX_BUNDLE_BYTES)) {
                bytes += frames.get(end).length;
                end++;
            }
            List<byte[]> chunk = frames.subList(start, end);
            byte[] payload = chunk.size() == 1 ? chunk.get(0) : FrameBundle.encode(chunk);
            all &= target == null ? messenger.sendToAll(payload) : messenger.send(target, payload, false);
            metrics.messagesSent(1);
            start = end;
        }
        return all;
    }
}
