package io.cohort.replication.wire;

/**
 * A sealed message to all that verified but arrived before any message of its sender's own to this member, whose to-all
 * mark says where the sender's stream to all starts here ({@link FrameSeal}). Messages to all and to one member travel
 * apart (multicast and unicast), so a member that just joined often gets a sender's first messages to all before its
 * greeting: the receiver holds them until that greeting arrives and then opens them again, rather than dropping them.
 */
public final class ToAllBeforeMarkException extends MalformedMessageException {

    public ToAllBeforeMarkException() {
        super("a message to all before any message of the sender's own to this member");
    }
}
