package io.cohort.replication.group;

/** The session store contract over the multicast (UDP) transport. */
class MulticastSessionStoreContractTest extends GroupSessionStoreContractTest {

    @Override
    protected TestGroup.Transport transport() {
        return TestGroup.Transport.MULTICAST;
    }
}
