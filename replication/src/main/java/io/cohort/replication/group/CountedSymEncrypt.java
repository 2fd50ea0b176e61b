package io.cohort.replication.group;

import io.micrometer.core.instrument.Counter;
import javax.crypto.Cipher;
import org.jgroups.Message;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.SYM_ENCRYPT;

/**
 * JGroups' payload encryption, whose failed decryptions count as rejected messages. A message JGroups cannot decrypt or
 * parse after decrypting (its header, which nobody authenticates, may ask for the plaintext to be read as a whole
 * message) is dropped by JGroups with a warning only; a forgery that decrypts is counted when its seal fails. Counting
 * both alike keeps {@code cohort_replication_messages_rejected} from telling an attacker which of the two a forgery
 * met, and so anything about the plaintext. Same protocol id and wire format as {@link SYM_ENCRYPT}; public because
 * JGroups creates it from the stack's configuration by class name.
 */
public final class CountedSymEncrypt extends SYM_ENCRYPT {

    private volatile Counter rejected;

    public CountedSymEncrypt() {
        setId(ClassConfigurator.getProtocolId(SYM_ENCRYPT.class));
    }

    /** Where failed decryptions are counted from now on (the messages' rejected counter). */
    void countFailuresIn(Counter counter) {
        this.rejected = counter;
    }

    @Override
    protected Message decrypt(Cipher cipher, Message message) throws Exception {
        try {
            return super.decrypt(cipher, message);
        } catch (Exception e) {
            Counter counter = rejected;
            if (counter != null) {
                counter.increment();
            }
            throw e;
        }
    }
}
