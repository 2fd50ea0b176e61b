package io.cohort.replication.group;

import org.jgroups.Address;
import org.jgroups.View;

/** Where a {@link GroupChannel} delivers what arrives: frames and views. Called on JGroups threads; must not block. */
interface Inbox {

    void frame(Address from, byte[] buffer, int offset, int length);

    void view(View view);
}
