package io.cohort.session.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.session.RemovalCause;
import io.cohort.session.SessionStore;
import io.cohort.session.StoredSession;
import io.cohort.session.serial.AllowListFilter;
import io.cohort.session.serial.RejectedValueException;
import io.cohort.session.serial.SessionValueCodec;
import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The contract every {@link SessionStore} must keep, as seen by the node: what the owner of a
 * session reported is what another member (or a later deployment of the application) finds.
 *
 * <p>Each store implementation subclasses this with a {@link Fixture} that knows how the store
 * makes an owner's state available elsewhere (for the local store: a graceful stop and a redeploy;
 * for replicated stores: whatever their trigger and delivery require).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class SessionStoreContractTest {

    /** A group of started stores serving one application on different members. */
    protected interface Fixture extends AutoCloseable {

        /** The store of the member that owns the sessions in a test. */
        SessionStore owner();

        /**
         * Makes the owner's current state of these sessions available to {@link #successor()}: calls
         * the events the store's policy acts on and waits until they took effect.
         */
        void handOver(List<TestSession> sessions) throws Exception;

        /** The store of the member (or later deployment) that takes the sessions over. */
        SessionStore successor();

        @Override
        void close() throws Exception;
    }

    /** A fresh fixture for each test; {@code codec} serializes values like the node does. */
    protected abstract Fixture createFixture(SessionValueCodec codec) throws Exception;

    protected final SessionValueCodec codec = new SessionValueCodec(getClass().getClassLoader(),
            new AllowListFilter(List.of("io.cohort.session.contract.*"), 1 << 20, 50, 10_000,
                    getClass().getClassLoader(), rejected -> { }), 1 << 20);
    protected Fixture fixture;

    @BeforeEach
    void createFixture() throws Exception {
        fixture = createFixture(codec);
    }

    @AfterEach
    void closeFixture() throws Exception {
        fixture.close();
    }

    protected TestSession newSession() {
        TestSession session = new TestSession(UUID.randomUUID().toString().replace("-", ""), codec);
        fixture.owner().created(session);
        return session;
    }

    protected void set(TestSession session, String name, Object value) {
        session.set(name, value);
        fixture.owner().attributeChanged(session, name);
    }

    @Test
    void sessionIsFoundElsewhereWithAllAttributesAndMetadata() throws Exception {
        TestSession session = newSession();
        set(session, "account", new Account("j2ee", "John"));
        set(session, "cart", new ArrayList<>(List.of("EST-1", "EST-2")));
        set(session, "count", 3);
        session.access(Instant.now()).maxInactive(600_000);

        fixture.handOver(List.of(session));
        StoredSession found = fixture.successor().load(session.id()).orElseThrow();

        assertThat(found.id()).isEqualTo(session.id());
        assertThat(found.created()).isEqualTo(session.created());
        assertThat(found.maxInactiveMillis()).isEqualTo(600_000);
        assertThat(found.version()).isGreaterThanOrEqualTo(0).isEqualTo(session.version());
        assertThat(found.attributes().keySet()).containsExactlyInAnyOrder("account", "cart", "count");
        assertThat(value(found, "account")).isEqualTo(new Account("j2ee", "John"));
        assertThat(value(found, "cart")).isEqualTo(List.of("EST-1", "EST-2"));
        assertThat(value(found, "count")).isEqualTo(3);
    }

    @Test
    void unknownSessionIsNotFoundAndLoadDoesNotFail() {
        assertThat(fixture.successor().load("no-such-session")).isEmpty();
        assertThat(fixture.successor().exists("no-such-session")).isFalse();
    }

    @Test
    void removedAttributeIsAbsentElsewhere() throws Exception {
        TestSession session = newSession();
        set(session, "a", "1");
        set(session, "b", "2");
        set(session, "a", null);

        fixture.handOver(List.of(session));

        StoredSession found = fixture.successor().load(session.id()).orElseThrow();
        assertThat(found.attributes().keySet()).containsExactly("b");
    }

    @Test
    void latestValueOfAnAttributeWins() throws Exception {
        TestSession session = newSession();
        set(session, "step", "first");
        set(session, "step", "second");
        set(session, "step", "third");

        fixture.handOver(List.of(session));

        assertThat(value(fixture.successor().load(session.id()).orElseThrow(), "step")).isEqualTo("third");
    }

    @Test
    void invalidatedSessionIsGoneEverywhere() throws Exception {
        TestSession session = newSession();
        set(session, "a", "1");
        fixture.handOver(List.of(session));
        SessionStore newOwner = fixture.successor();
        assertThat(newOwner.exists(session.id())).isTrue();

        newOwner.removed(session.id(), RemovalCause.INVALIDATED);

        assertThat(newOwner.exists(session.id())).isFalse();
        assertThat(newOwner.load(session.id())).isEmpty();
    }

    @Test
    void changedIdIsFoundUnderTheNewIdOnly() throws Exception {
        TestSession session = newSession();
        set(session, "user", "j2ee");
        TestSession renamed = session.renamed(session.id() + "x");
        fixture.owner().idChanged(session.id(), renamed);

        fixture.handOver(List.of(renamed));

        assertThat(fixture.successor().load(session.id())).isEmpty();
        assertThat(value(fixture.successor().load(renamed.id()).orElseThrow(), "user")).isEqualTo("j2ee");
    }

    @Test
    void sessionsChangedConcurrentlyAreAllFoundElsewhere() throws Exception {
        int sessions = 40;
        List<TestSession> all = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            all.add(newSession());
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (TestSession session : all) {
                done.add(pool.submit(() -> {
                    synchronized (session) {
                        for (int n = 0; n < 5; n++) {
                            set(session, "n", n);
                            set(session, "item" + n, "EST-" + n);
                        }
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        fixture.handOver(all);

        for (TestSession session : all) {
            StoredSession found = fixture.successor().load(session.id()).orElseThrow();
            assertThat(value(found, "n")).isEqualTo(4);
            assertThat(found.attributes()).hasSize(6);
        }
    }

    protected Object value(StoredSession session, String name) throws RejectedValueException {
        byte[] bytes = Optional.ofNullable(session.attributes().get(name)).orElseThrow(
                () -> new AssertionError("attribute " + name + " missing in " + session.attributes().keySet()));
        return codec.deserialize(name, bytes);
    }

    /** A value of the application's own kind. */
    public record Account(String user, String name) implements Serializable {
    }

    protected static Map<String, Object> attributes(Object... nameValues) {
        var map = new java.util.LinkedHashMap<String, Object>();
        for (int i = 0; i < nameValues.length; i += 2) {
            map.put((String) nameValues[i], nameValues[i + 1]);
        }
        return map;
    }
}
