package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.jgroups.Address;
import org.jgroups.EmptyMessage;
import org.jgroups.Message;
import org.jgroups.protocols.AUTH;
import org.jgroups.util.ByteArrayDataInputStream;
import org.jgroups.util.ByteArrayDataOutputStream;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.Test;

/** The join token: proves the secret for one address, once, within the clock skew. */
class SharedSecretTokenTest {

    private static final byte[] KEY = "join key of this test, 32 bytes".getBytes(StandardCharsets.US_ASCII);

    private final Address joiner = UUID.randomUUID();
    private final SharedSecretToken coordinator = new SharedSecretToken(KEY);

    @Test
    void aTokenIsAcceptedOnceAndItsReplayRefused() throws Exception {
        byte[] captured = written(new SharedSecretToken(KEY), joiner);

        assertThat(coordinator.authenticate(read(captured), from(joiner))).as("the genuine join").isTrue();
        assertThat(coordinator.authenticate(read(captured), from(joiner))).as("the same token again").isFalse();
        assertThat(coordinator.authenticate(read(written(new SharedSecretToken(KEY), joiner)), from(joiner)))
                .as("the joiner's next request carries a fresh nonce").isTrue();
    }

    @Test
    void aTokenIsRefusedFromAnotherAddressOrWithAnotherKey() throws Exception {
        byte[] captured = written(new SharedSecretToken(KEY), joiner);
        byte[] forged = written(new SharedSecretToken("another key".getBytes(StandardCharsets.US_ASCII)), joiner);

        assertThat(coordinator.authenticate(read(captured), from(UUID.randomUUID()))).isFalse();
        assertThat(coordinator.authenticate(read(forged), from(joiner))).isFalse();
        assertThat(coordinator.authenticate(read(captured), from(joiner)))
                .as("a refusal for another address does not use the token up").isTrue();
    }

    @Test
    void nonceMemoryForgetsExpiredTokensAndIsBounded() {
        AtomicLong now = new AtomicLong(1_000_000);
        AcceptedNonces nonces = new AcceptedNonces(Duration.ofMinutes(5), now::get);
        byte[] nonce = {1, 2, 3};

        assertThat(nonces.firstUse(nonce, now.get())).isTrue();
        assertThat(nonces.firstUse(nonce.clone(), now.get())).isFalse();

        for (int i = 0; nonces.size() < AcceptedNonces.CAPACITY; i++) {
            assertThat(nonces.firstUse(new byte[] {(byte) i, (byte) (i >> 8), (byte) (i >> 16), 9}, now.get())).isTrue();
        }
        assertThat(nonces.firstUse(new byte[] {7, 7, 7, 7, 7}, now.get())).as("full of live tokens").isFalse();

        now.addAndGet(Duration.ofMinutes(5).toMillis() + 1);
        assertThat(nonces.firstUse(new byte[] {7, 7, 7, 7, 7}, now.get())).as("after the old ones expired").isTrue();
        assertThat(nonces.size()).isEqualTo(1);
    }

    private static byte[] written(SharedSecretToken token, Address address) throws Exception {
        AUTH auth = new AUTH();
        auth.setAddress(address);
        token.setAuth(auth);
        ByteArrayDataOutputStream out = new ByteArrayDataOutputStream();
        token.writeTo(out);
        return out.buffer().clone();
    }

    private static SharedSecretToken read(byte[] bytes) throws Exception {
        SharedSecretToken token = new SharedSecretToken();
        token.readFrom(new ByteArrayDataInputStream(bytes));
        return token;
    }

    private static Message from(Address sender) {
        return new EmptyMessage().setSrc(sender);
    }
}
