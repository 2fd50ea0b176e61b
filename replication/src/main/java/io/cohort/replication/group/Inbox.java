package io.cohort.replication.group;

import org.jgroups.Address;
import org.jgroups.View;

/** Where a {@link GroupChannel} delivers what arrives: frames and views. Called on JGroups threads; must not block. */
interface Inbox {

    void frame(Address from, byte[] buffer, int offset, int length);

    /** A message from {@code from} was refused before it reached the frames (its seal), for {@code reason}. */
    void rejected(Address from, String reason);

    void view(View view);
}
