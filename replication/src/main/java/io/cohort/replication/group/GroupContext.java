package io.cohort.replication.group;

/**
 * The node-wide parts of a group that every application's transport shares.
 *
 * @param membership who is in the group
 * @param messenger  how frames leave
 * @param backups    the copies this node holds for others
 * @param acks       changes waiting for acknowledgements
 * @param lookups    lookups waiting for answers
 */
record GroupContext(GroupMembership membership, Messenger messenger, BackupStore backups, SyncAcknowledgements acks,
                    LookupRequests lookups) {

    String selfName() {
        return membership.self().name();
    }
}
