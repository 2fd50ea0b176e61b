package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import javax.crypto.spec.SecretKeySpec;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.Event;
import org.jgroups.Message;
import org.jgroups.View;
import org.jgroups.protocols.EncryptHeader;
import org.jgroups.stack.Protocol;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A forgery that JGroups cannot parse after decrypting counts as rejected, as one that decrypts and then fails at the
 * seal does: the metrics tell neither apart.
 */
class CountedSymEncryptTest {

    private final Address member = UUID.randomUUID();
    private final Counter rejected = new SimpleMeterRegistry().counter("rejected");
    private final List<Message> passedUp = new ArrayList<>();

    @Test
    void aForgeryThatFailsToParseAfterDecryptingIsCountedAndOneThatParsesGoesOnToTheSeal() throws Exception {
        CountedSymEncrypt encrypt = started();
        byte[] garbage = new byte[64];
        new SecureRandom().nextBytes(garbage);

        encrypt.up(forged(encrypt, garbage, true)); // JGroups reads the plaintext as a whole message: it fails
        encrypt.up(forged(encrypt, garbage, false)); // a payload: it decrypts and goes up, to fail at the seal

        assertThat(rejected.count()).as("the forgery JGroups dropped").isEqualTo(1);
        assertThat(passedUp).as("the forgery that decrypted").hasSize(1);
    }

    private CountedSymEncrypt started() throws Exception {
        CountedSymEncrypt encrypt = new CountedSymEncrypt();
        encrypt.symAlgorithm("AES/CTR/NoPadding");
        encrypt.symIvLength(16);
        encrypt.setSecretKey(new SecretKeySpec(new byte[32], "AES"));
        encrypt.setUpProtocol(new Protocol() {
            @Override
            public Object up(Message message) {
                passedUp.add(message);
                return null;
            }

            @Override
            public Object up(Event event) {
                return null;
            }
        });
        encrypt.init();
        encrypt.countFailuresIn(rejected);
        encrypt.up(new Event(Event.VIEW_CHANGE, View.create(member, 1, member)));
        return encrypt;
    }

    /** A message from a member of the view, with a valid key version and a random IV, carrying {@code payload}. */
    private Message forged(CountedSymEncrypt encrypt, byte[] payload, boolean wholeMessage) {
        byte[] iv = new byte[16];
        new SecureRandom().nextBytes(iv);
        Message message = new BytesMessage(null, payload.clone()).setSrc(member);
        message.putHeader(encrypt.getId(), new EncryptHeader((byte) 0, encrypt.symVersion(), iv)
                .needsDeserialization(wholeMessage));
        return message;
    }
}
