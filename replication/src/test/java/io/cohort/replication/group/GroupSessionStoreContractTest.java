package io.cohort.replication.group;

import io.cohort.session.SessionStore;
import io.cohort.session.contract.SessionStoreContractTest;
import io.cohort.session.contract.TestSession;
import io.cohort.session.serial.SessionValueCodec;
import java.util.List;

/**
 * The session store contract over a JGroups transport: two members of one group; the owner reports
 * the events of its trigger (request end) and the hand-over waits until the successor holds each
 * session at the owner's version.
 */
abstract class GroupSessionStoreContractTest extends SessionStoreContractTest {

    protected abstract TestGroup.Transport transport();

    @Override
    protected Fixture createFixture(SessionValueCodec codec) throws Exception {
        return new GroupFixture(TestGroup.of(transport(), TestGroup.defaults()));
    }

    private static final class GroupFixture implements Fixture {

        private final TestGroup group;
        private final TestMember owner;
        private final TestMember successor;

        GroupFixture(TestGroup group) throws Exception {
            this.group = group;
            List<TestMember> members = group.startMembers(2);
            this.owner = members.get(0);
            this.successor = members.get(1);
        }

        @Override
        public SessionStore owner() {
            return owner.store();
        }

        @Override
        public void handOver(List<TestSession> sessions) {
            for (TestSession session : sessions) {
                owner.requestCompleted(session);
            }
            for (TestSession session : sessions) {
                long version;
                synchronized (session) {
                    version = session.version();
                }
                Await.until("the successor holds " + session.id() + " at version " + version,
                        () -> successor.backupVersion(session.id()) == version);
            }
        }

        @Override
        public SessionStore successor() {
            return successor.store();
        }

        @Override
        public void close() {
            group.close();
        }
    }
}
