package io.cohort.session.local;

import io.cohort.cluster.Member;
import io.cohort.cluster.SingleNodeView;
import io.cohort.session.SessionStore;
import io.cohort.session.SessionCacheControl;
import io.cohort.session.SessionStoreContext;
import io.cohort.session.contract.SessionStoreContractTest;
import io.cohort.session.contract.TestSession;
import io.cohort.session.serial.SessionValueCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * The local store keeps the contract across a redeploy: the old deployment's graceful stop hands
 * its sessions to the node's repository, and the new deployment finds them there.
 */
class LocalSessionStoreContractTest extends SessionStoreContractTest {

    @Override
    protected Fixture createFixture(SessionValueCodec codec) throws Exception {
        LocalSessionRepository repository = new LocalSessionRepository(Clock.systemUTC());
        Member self = new Member("n1", "n1", "localhost", URI.create("http://127.0.0.1:1"), URI.create("http://127.0.0.1:2"));
        SessionStoreContext context = new SessionStoreContext("shop", "/shop", "n1", true,
                getClass().getClassLoader(), codec, Optional.empty(), new SingleNodeView(self), new SimpleMeterRegistry(),
                SessionCacheControl.NONE, Duration.ofSeconds(5));
        LocalSessionStore before = new LocalSessionStore(repository);
        before.start(context);
        // as in a redeploy, the new deployment starts before the old one stops
        LocalSessionStore after = new LocalSessionStore(repository);
        after.start(context);
        return new Fixture() {
            @Override
            public SessionStore owner() {
                return before;
            }

            @Override
            public void handOver(List<TestSession> sessions) {
                sessions.forEach(before::shuttingDown);
                before.stop();
            }

            @Override
            public SessionStore successor() {
                return after;
            }

            @Override
            public void close() {
                after.stop();
            }
        };
    }
}
