package io.cohort.balancer;

import io.cohort.net.IpLiteral;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.InetAddressSet;

/**
 * The proxy headers a member receives: {@code X-Forwarded-For}, {@code X-Forwarded-Proto},
 * {@code X-Forwarded-Host} and {@code Forwarded} (RFC 7239) describe the client's connection. Whatever
 * the client sent under these names (and every other {@code X-Forwarded-*} header, such as {@code X-Forwarded-Prefix}
 * or {@code X-Forwarded-Ssl}, and {@code X-Real-IP}, {@code X-Proxied-Https}, {@code Front-End-Https}) is removed,
 * never passed on or appended to: an application behind a proxy may build links and redirects from any of them, or
 * take the request for a secure one.
 *
 * <p>By default the balancer is the edge: the client is whoever connected to it. When the connection
 * comes from a trusted proxy (a TLS terminator in front of the balancer, {@code trusted-proxies}), the
 * client is the right-most address of that proxy's {@code X-Forwarded-For} chain that is not itself a
 * trusted proxy (the addresses left of it were written by whoever the client is, so they can be made
 * up), and the scheme and host are the proxy's {@code X-Forwarded-Proto} and {@code X-Forwarded-Host}.
 * The member always gets a single client address. Thread-safe.
 */
final class ForwardedHeaders {

    private static final String X_REAL_IP = "X-Real-IP";
    /** Jetty's forwarding customizer reads it (on/true: the request is secure) unless told not to. */
    private static final String X_PROXIED_HTTPS = "X-Proxied-Https";
    /** Microsoft's "the request came over TLS" header, which some frameworks read as X-Forwarded-Proto. */
    private static final String FRONT_END_HTTPS = "Front-End-Https";
    private static final String X_FORWARDED_PREFIX = "X-Forwarded-";
    /** The longest host name (253) with a port. */
    private static final int MAX_HOST_LENGTH = 253 + 6;
    private static final Pattern HOST = Pattern.compile("(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?");

    private final InetAddressSet trustedProxies = new InetAddressSet();

    /** @param trustedProxies addresses and CIDR ranges of the proxies in front of the balancer; empty for none */
    ForwardedHeaders(List<String> trustedProxies) {
        trustedProxies.forEach(this.trustedProxies::add);
    }

    /** Removes the client's forwarding and proxy headers from {@code headers} (a copy of the client's). */
    static void removeUntrusted(HttpFields.Mutable headers) {
        // one pass: every X-Forwarded-* (For, Proto, Host, Port, Server, Prefix, Ssl...), Forwarded, X-Real-IP,
        // X-Proxied-Https, Front-End-Https, Proxy (the "httpoxy" header, which CGI-style code reads as HTTP_PROXY) and
        // every Proxy-* header
        for (Iterator<HttpField> fields = headers.iterator(); fields.hasNext(); ) {
            String name = fields.next().getName();
            if (name.regionMatches(true, 0, X_FORWARDED_PREFIX, 0, X_FORWARDED_PREFIX.length())
                    || name.equalsIgnoreCase(HttpHeader.FORWARDED.asString()) || name.equalsIgnoreCase(X_REAL_IP)
                    || name.equalsIgnoreCase(X_PROXIED_HTTPS) || name.equalsIgnoreCase(FRONT_END_HTTPS)
                    || name.equalsIgnoreCase("Proxy") || name.regionMatches(true, 0, "Proxy-", 0, 6)) {
                fields.remove();
            }
        }
    }

    /**
     * The client's address as members get it in {@code X-Forwarded-For}: the connection's peer, or, when that peer is a
     * trusted proxy, the client that proxy names (see the class comment).
     */
    String clientAddress(Request client) {
        String peer = Request.getRemoteAddr(client);
        return isTrustedProxy(client) ? clientBehind(client.getHeaders().getValuesList(HttpHeader.X_FORWARDED_FOR), peer) : peer;
    }

    /** Adds the balancer's own forwarding headers for this client request. */
    void add(Request client, HttpFields.Mutable headers) {
        String clientAddress = clientAddress(client);
        // the connection's, not the request's: a target in absolute form keeps whatever scheme the client wrote
        String proto = client.getConnectionMetaData().isSecure() ? "https" : "http";
        String host = client.getHeaders().get(HttpHeader.HOST);
        if (host == null) {
            host = Request.getServerName(client) + ":" + Request.getServerPort(client);
        }
        if (isTrustedProxy(client)) {
            String forwardedProto = lastValue(client.getHeaders(), HttpHeader.X_FORWARDED_PROTO);
            if ("https".equalsIgnoreCase(forwardedProto) || "http".equalsIgnoreCase(forwardedProto)) {
                proto = forwardedProto.toLowerCase(Locale.ROOT);
            }
            String forwardedHost = lastValue(client.getHeaders(), HttpHeader.X_FORWARDED_HOST);
            if (forwardedHost != null && forwardedHost.length() <= MAX_HOST_LENGTH
                    && HOST.matcher(forwardedHost).matches()) {
                host = forwardedHost;
            }
        }
        headers.put(HttpHeader.X_FORWARDED_FOR, clientAddress);
        headers.put(HttpHeader.X_FORWARDED_PROTO, proto);
        headers.put(HttpHeader.X_FORWARDED_HOST, host);
        headers.put(new HttpField(HttpHeader.FORWARDED, "for=" + node(clientAddress) + ";proto=" + proto
                + ";host=" + HttpField.PARAMETER_TOKENIZER.quote(host) + ";by=" + node(Request.getLocalAddr(client))));
    }

    /**
     * The right-most address of the chain (the proxies' {@code X-Forwarded-For} values, then the connection's peer)
     * that is not a trusted proxy; the left-most one if all are. Anything that is not an IP literal (with or without
     * a port; see {@link IpLiteral}, which never looks a name up) ends the walk: the client is the address right of it.
     */
    String clientBehind(List<String> forwardedFor, String peer) {
        List<String> chain = new ArrayList<>();
        for (String value : forwardedFor) {
            for (String element : value.split(",")) {
                chain.add(element.strip());
            }
        }
        String client = peer;
        for (int i = chain.size() - 1; i >= 0; i--) {
            String bare = withoutPort(chain.get(i));
            InetAddress address = IpLiteral.parse(bare);
            if (address == null) {
                return client;
            }
            client = bare;
            if (!trustedProxies.test(address)) {
                return client;
            }
        }
        return client;
    }

    /** {@code 192.0.2.1:8080} and {@code [2001:db8::1]:8080} without the port; brackets of IPv6 removed. */
    private static String withoutPort(String element) {
        if (element.startsWith("[")) {
            int end = element.indexOf(']');
            return end < 0 ? element : element.substring(1, end);
        }
        int colon = element.indexOf(':');
        return colon > 0 && element.indexOf(':', colon + 1) < 0 ? element.substring(0, colon) : element;
    }

    private boolean isTrustedProxy(Request client) {
        return client.getConnectionMetaData().getRemoteSocketAddress() instanceof InetSocketAddress peer
                && peer.getAddress() != null && isTrustedProxy(peer.getAddress());
    }

    /** Whether {@code address} is one of the trusted proxies ({@code trusted-proxies}). */
    boolean isTrustedProxy(InetAddress address) {
        return !trustedProxies.isEmpty() && trustedProxies.test(address);
    }

    /** The last comma-separated value of {@code header} (the nearest proxy's), or null if there is none. */
    private static String lastValue(HttpFields headers, HttpHeader header) {
        List<String> values = headers.getValuesList(header);
        if (values.isEmpty()) {
            return null;
        }
        String[] elements = values.get(values.size() - 1).split(",");
        String last = elements[elements.length - 1].strip();
        return last.isEmpty() ? null : last;
    }

    /** An RFC 7239 node: IPv6 addresses bracketed and quoted, IPv4 addresses as they are. */
    private static String node(String address) {
        if (address.indexOf(':') >= 0) {
            return "\"" + (address.startsWith("[") ? address : "[" + address + "]") + "\"";
        }
        return address;
    }
}
