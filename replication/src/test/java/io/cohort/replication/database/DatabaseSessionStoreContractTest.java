package io.cohort.replication.database;

import io.cohort.replication.group.Await;
import io.cohort.replication.group.TestGroup;
import io.cohort.session.SessionStore;
import io.cohort.session.contract.SessionStoreContractTest;
import io.cohort.session.contract.TestSession;
import io.cohort.session.serial.SessionValueCodec;
import java.util.List;

/**
 * The session store contract over the database transport on embedded H2: two nodes with pools of
 * their own on one in-memory database; the owner reports the events of its trigger (request end,
 * asynchronous) and the hand-over waits until the session row has the owner's version.
 */
class DatabaseSessionStoreContractTest extends SessionStoreContractTest {

    /** A fresh, empty database for one test. */
    protected TestDatabase openDatabase() {
        return new H2Database();
    }

    @Override
    protected Fixture createFixture(SessionValueCodec codec) throws Exception {
        return new DatabaseFixture(openDatabase());
    }

    private static final class DatabaseFixture implements Fixture {

        private final TestDatabase database;
        private final SessionRows rows;
        private final DatabaseNode owner;
        private final DatabaseNode successor;

        DatabaseFixture(TestDatabase database) throws Exception {
            this.database = database;
            this.rows = new SessionRows(database);
            this.owner = DatabaseNode.start("a", database, TestGroup.defaults());
            this.successor = DatabaseNode.start("b", database, TestGroup.defaults());
        }

        @Override
        public SessionStore owner() {
            return owner.store();
        }

        @Override
        public void handOver(List<TestSession> sessions) {
            for (TestSession session : sessions) {
                synchronized (session) {
                    owner.store().requestCompleted(session);
                }
            }
            for (TestSession session : sessions) {
                long version;
                synchronized (session) {
                    version = session.version();
                }
                Await.until("the database has " + session.id() + " at version " + version,
                        () -> rows.version(session.id()) == version);
            }
        }

        @Override
        public SessionStore successor() {
            return successor.store();
        }

        @Override
        public void close() {
            try {
                owner.close();
                successor.close();
            } finally {
                database.close();
            }
        }
    }
}
