package io.cohort.replication.group;

/** The session store contract over the peer (TCP) transport. */
class PeerSessionStoreContractTest extends GroupSessionStoreContractTest {

    @Override
    protected TestGroup.Transport transport() {
        return TestGroup.Transport.PEER;
    }
}
