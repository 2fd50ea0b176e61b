package io.cohort.replication.group;

import java.math.BigInteger;
import java.net.Socket;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.ECPublicKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a member of a {@code <security tls="true">} cluster proves itself with on its TLS connections, and the
 * only thing it accepts from the other end: one EC P-256 key pair derived from the cluster secret
 * ({@link ClusterKeys#tlsSeed}), the same on every member. Each side presents a self-signed certificate of that
 * key and trusts a peer only if the peer's certificate holds the very same public key; TLS then makes the peer prove
 * it holds the private key, so a host without the secret fails the handshake before a byte of JGroups' protocol is
 * read from it. Certificates, their names and dates, carry no trust of their own here: a certificate authority plays
 * no part, and there is nothing to renew.
 *
 * <p>The public key is no secret, but it is as good as one for guessing: whoever captures a handshake can test
 * guesses of a weak secret against it offline, as against the join token (PBKDF2 slows each guess).
 */
final class TlsIdentity {

    /** The only TLS version a member speaks: its handshake encrypts the certificates. */
    static final String PROTOCOL = "TLSv1.3";
    private static final String CURVE = "secp256r1";
    private static final char[] IN_MEMORY_PASSWORD = "cohort".toCharArray();

    private final PrivateKey privateKey;
    private final PublicKey publicKey;
    private final X509Certificate certificate;

    private TlsIdentity(PrivateKey privateKey, PublicKey publicKey, X509Certificate certificate) {
        this.privateKey = privateKey;
        this.publicKey = publicKey;
        this.certificate = certificate;
    }

    /**
     * Derives the cluster's key pair from {@code keys} and certifies it for this member.
     *
     * @param clusterName written into the certificate's subject, for whoever inspects a handshake
     */
    static TlsIdentity derive(ClusterKeys keys, String clusterName) {
        try {
            X9ECParameters curve = CustomNamedCurves.getByName(CURVE);
            BigInteger order = curve.getN();
            // a scalar in [1, n - 1]; the modulo's bias, under 2^-32 for this curve, reveals nothing usable
            BigInteger scalar = new BigInteger(1, keys.tlsSeed()).mod(order.subtract(BigInteger.ONE)).add(BigInteger.ONE);
            org.bouncycastle.math.ec.ECPoint point = curve.getG().multiply(scalar).normalize();

            AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
            parameters.init(new ECGenParameterSpec(CURVE));
            ECParameterSpec spec = parameters.getParameterSpec(ECParameterSpec.class);
            KeyFactory factory = KeyFactory.getInstance("EC");
            PrivateKey privateKey = factory.generatePrivate(new ECPrivateKeySpec(scalar, spec));
            PublicKey publicKey = factory.generatePublic(new ECPublicKeySpec(
                    new ECPoint(point.getAffineXCoord().toBigInteger(), point.getAffineYCoord().toBigInteger()), spec));
            return new TlsIdentity(privateKey, publicKey, certify(privateKey, publicKey, clusterName));
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot derive the cluster's TLS key: " + e, e);
        }
    }

    private static X509Certificate certify(PrivateKey privateKey, PublicKey publicKey, String clusterName)
            throws GeneralSecurityException, OperatorCreationException {
        // built value by value: a cluster name is any text, never parsed as a distinguished name
        X500Name subject = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, "Cohort cluster member")
                .addRDN(BCStyle.O, clusterName).build();
        Instant now = Instant.now();
        var builder = new JcaX509v3CertificateBuilder(subject, new BigInteger(64, new SecureRandom()),
                Date.from(now.minus(Duration.ofDays(1))), Date.from(now.plus(Duration.ofDays(3650))), subject, publicKey);
        var signer = new JcaContentSignerBuilder("SHA256withECDSA").build(privateKey);
        return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
    }

    /** The cluster's public key: what a peer's certificate must hold. */
    PublicKey publicKey() {
        return publicKey;
    }

    /**
     * A TLS 1.3 context presenting this member's certificate on both ends of a connection and trusting only peers
     * of the same key ({@link ClusterKeyTrust}). Servers must also require the client's certificate.
     */
    SSLContext context() {
        try {
            SSLContext context = SSLContext.getInstance(PROTOCOL);
            context.init(keyManagers(), new TrustManager[] {new ClusterKeyTrust(publicKey, certificate)}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS with the cluster's key: " + e, e);
        }
    }

    /** What presents this member's certificate, and proves its key, in a handshake. */
    KeyManager[] keyManagers() throws GeneralSecurityException {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("member", privateKey, IN_MEMORY_PASSWORD, new X509Certificate[] {certificate});
            KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(store, IN_MEMORY_PASSWORD);
            return keyManagers.getKeyManagers();
        } catch (java.io.IOException e) {
            throw new GeneralSecurityException("an in-memory key store failed: " + e, e);
        }
    }

    /**
     * Trusts a peer, server or client, exactly when its certificate holds the cluster's public key; names, dates and
     * issuers are not looked at. The handshake's signature with the matching private key is what proves the peer.
     */
    static final class ClusterKeyTrust extends X509ExtendedTrustManager {
        private static final Logger LOG = LoggerFactory.getLogger(TlsIdentity.class);

        private final byte[] clusterKey;
        private final X509Certificate own;
        private final AtomicBoolean refusalLogged = new AtomicBoolean();

        ClusterKeyTrust(PublicKey clusterKey, X509Certificate own) {
            this.clusterKey = clusterKey.getEncoded();
            this.own = own;
        }

        private void check(X509Certificate[] chain, Object peer) throws CertificateException {
            if (chain == null || chain.length == 0) {
                throw new CertificateException("the peer presented no certificate");
            }
            if (!MessageDigest.isEqual(clusterKey, chain[0].getPublicKey().getEncoded())) {
                if (refusalLogged.compareAndSet(false, true)) {
                    LOG.warn("refused the TLS connection of {}: its certificate holds another key, so it was not "
                            + "started with this cluster's secret and name (further refusals are not logged)", peer);
                }
                throw new CertificateException("the peer's certificate is not of this cluster's key: "
                        + "it does not hold the cluster secret");
            }
        }

        private static Object peer(Socket socket) {
            return socket == null ? "a peer" : socket.getRemoteSocketAddress();
        }

        private static Object peer(SSLEngine engine) {
            return engine == null ? "a peer" : engine.getPeerHost() + ":" + engine.getPeerPort();
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain, "a peer");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain, "a peer");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            check(chain, peer(socket));
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            check(chain, peer(socket));
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            check(chain, peer(engine));
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            check(chain, peer(engine));
        }

        /** The member's own certificate: a client offers its certificate for this issuer (itself). */
        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[] {own};
        }
    }
}
