package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.Secret;
import org.junit.jupiter.api.Test;

/** Every member derives the same TLS key from the same secret and cluster name, and another key from anything else. */
class TlsIdentityTest {

    private static TlsIdentity derive(String secret, String cluster) {
        return TlsIdentity.derive(ClusterKeys.derive(new Secret(secret, "test"), cluster), cluster);
    }

    @Test
    void theSameSecretAndClusterNameGiveTheSameKeyOnEveryMember() {
        assertThat(derive("k7Qw2ZrT9pLx4VbN8sYd", "shop").publicKey())
                .isEqualTo(derive("k7Qw2ZrT9pLx4VbN8sYd", "shop").publicKey());
    }

    @Test
    void anotherSecretOrClusterNameGivesAnotherKey() {
        var key = derive("k7Qw2ZrT9pLx4VbN8sYd", "shop").publicKey();
        assertThat(derive("k7Qw2ZrT9pLx4VbN8sYe", "shop").publicKey()).isNotEqualTo(key);
        assertThat(derive("k7Qw2ZrT9pLx4VbN8sYd", "shop2").publicKey()).isNotEqualTo(key);
    }

    @Test
    void aClusterNameThatLooksLikeADistinguishedNameIsCertifiedAsText() {
        String awkward = "shop, O=other+CN=\"x\"\\ #1 ; <é>";
        TlsIdentity identity = derive("k7Qw2ZrT9pLx4VbN8sYd", awkward);
        assertThat(identity.context().getProtocol()).isEqualTo(TlsIdentity.PROTOCOL);
    }
}
