package io.cohort.node;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.ForwardedRequestCustomizer;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.InetAddressSet;

/**
 * Applies a request's forwarding headers ({@code X-Forwarded-For}, {@code X-Forwarded-Proto},
 * {@code X-Forwarded-Host}, RFC 7239 {@code Forwarded}) only when the connection comes from a trusted
 * proxy, the balancers in front of the node: then the application sees the client's address, scheme
 * and host. A request from anywhere else keeps its connection's values, and its headers pass
 * untouched, so a client that reaches the node directly cannot pose as another address or as HTTPS.
 * Thread-safe once built.
 */
final class TrustedProxyForwarding implements HttpConfiguration.Customizer {

    private final InetAddressSet trusted = new InetAddressSet();
    private final ForwardedRequestCustomizer forwarded = new ForwardedRequestCustomizer();

    /** @param trustedProxies addresses and CIDR ranges, as validated by the configuration */
    TrustedProxyForwarding(List<String> trustedProxies) {
        trustedProxies.forEach(trusted::add);
        // only the standard headers: Jetty would also believe X-Proxied-Https (isSecure() true, whatever the scheme)
        // and its Proxy-ssl-id / Proxy-auth-cert, which a balancer passing them on untouched would let a client set
        forwarded.setForwardedHttpsHeader(null);
        forwarded.setForwardedCipherSuiteHeader(null);
        forwarded.setForwardedSslSessionIdHeader(null);
    }

    /** Whether any proxy is trusted at all (with none, the customizer need not be installed). */
    boolean trustsAnyone() {
        return !trusted.isEmpty();
    }

    @Override
    public Request customize(Request request, HttpFields.Mutable responseHeaders) {
        SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
        if (remote instanceof InetSocketAddress address && address.getAddress() != null
                && trusted.test(address.getAddress())) {
            return forwarded.customize(request, responseHeaders);
        }
        return request;
    }
}
