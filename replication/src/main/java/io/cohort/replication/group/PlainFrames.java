package io.cohort.replication.group;

import io.cohort.replication.engine.ReplicationMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;

/**
 * Sends frames that carry no session change (removals passed on, or kept for members out of another member's view) for
 * an application that may not be deployed on this node. Through the application's transport when it is deployed
 * ({@link GroupSessionTransport#plainDispatch}); otherwise they are counted the same way under the application's name:
 * one message per frame in {@code cohort.replication.messages}, their bytes in {@code cohort.replication.bytes}, and a
 * frame that could not be sent to a member still in the view in {@code cohort.replication.failures}. Thread-safe.
 */
final class PlainFrames {

    private final GroupContext group;
    private final Map<String, GroupSessionTransport> applications;
    private final MeterRegistry meters;

    PlainFrames(GroupContext group, Map<String, GroupSessionTransport> applications, MeterRegistry meters) {
        this.group = group;
        this.applications = applications;
        this.meters = meters;
    }

    /** Sends the frames in order (a {@code null} target: every other member at once), from the calling thread. */
    void send(String application, List<GroupDispatch.Frame> frames) {
        if (frames.isEmpty()) {
            return;
        }
        GroupSessionTransport local = applications.get(application);
        if (local != null) {
            local.plainDispatch(frames).send();
            return;
        }
        long bytes = 0;
        int failed = 0;
        for (GroupDispatch.Frame frame : frames) {
            boolean sent = frame.target() == null ? group.messenger().sendToAll(frame.bytes())
                    : group.messenger().send(frame.target(), frame.bytes(), false);
            if (sent) {
                bytes += frame.bytes().length;
            } else if (frame.target() != null && group.membership().addressOf(frame.target()).isPresent()) {
                failed++; // a member that left owes nothing
            }
        }
        meters.counter(ReplicationMetrics.MESSAGES, "app", application, "direction", ReplicationMetrics.SENT)
                .increment(frames.size());
        meters.counter(ReplicationMetrics.BYTES, "app", application, "direction", ReplicationMetrics.SENT).increment(bytes);
        if (failed > 0) {
            meters.counter(ReplicationMetrics.FAILURES, "app", application).increment(failed);
        }
    }
}
