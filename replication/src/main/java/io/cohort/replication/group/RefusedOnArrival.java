package io.cohort.replication.group;

/**
 * A message the transport read from the network but must not pass on, because what it carries could harm the member
 * before any authentication: a payload type Cohort never sends, a Java-serialized object, a length beyond the bytes
 * that arrived. Its payload was skipped, not built. {@link ArrivalGate}, right above the transport, drops it, counts
 * it and logs its kind once.
 */
interface RefusedOnArrival {

    /** Why the message is refused, or {@code null} if it is not. */
    String refusal();
}
