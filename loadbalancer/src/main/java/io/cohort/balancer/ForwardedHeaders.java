package io.cohort.balancer;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

/**
 * The proxy headers a member receives: {@code X-Forwarded-For}, {@code X-Forwarded-Proto},
 * {@code X-Forwarded-Host} and {@code Forwarded} (RFC 7239) describe the client's connection to the
 * balancer. Whatever the client sent under these names (and {@code X-Forwarded-Port},
 * {@code X-Forwarded-Server}, {@code X-Real-IP}) is removed, not appended to: the balancer is the
 * edge, so nothing before it is trusted.
 */
final class ForwardedHeaders {

    private static final String X_REAL_IP = "X-Real-IP";

    private ForwardedHeaders() {
    }

    /** Removes the client's forwarding headers from {@code headers} (a copy of the client's). */
    static void removeUntrusted(HttpFields.Mutable headers) {
        headers.remove(HttpHeader.X_FORWARDED_FOR);
        headers.remove(HttpHeader.X_FORWARDED_PROTO);
        headers.remove(HttpHeader.X_FORWARDED_HOST);
        headers.remove(HttpHeader.X_FORWARDED_PORT);
        headers.remove(HttpHeader.X_FORWARDED_SERVER);
        headers.remove(HttpHeader.FORWARDED);
        headers.remove(X_REAL_IP);
    }

    /** Adds the balancer's own forwarding headers for this client request. */
    static void add(Request client, HttpFields.Mutable headers) {
        String clientAddress = Request.getRemoteAddr(client);
        String proto = client.isSecure() ? "https" : "http";
        String host = client.getHeaders().get(HttpHeader.HOST);
        if (host == null) {
            host = Request.getServerName(client) + ":" + Request.getServerPort(client);
        }
        headers.put(HttpHeader.X_FORWARDED_FOR, clientAddress);
        headers.put(HttpHeader.X_FORWARDED_PROTO, proto);
        headers.put(HttpHeader.X_FORWARDED_HOST, host);
        headers.put(new HttpField(HttpHeader.FORWARDED, "for=" + node(clientAddress) + ";proto=" + proto
                + ";host=" + HttpField.PARAMETER_TOKENIZER.quote(host) + ";by=" + node(Request.getLocalAddr(client))));
    }

    /** An RFC 7239 node: IPv6 addresses bracketed and quoted, IPv4 addresses as they are. */
    private static String node(String address) {
        if (address.indexOf(':') >= 0) {
            return "\"" + (address.startsWith("[") ? address : "[" + address + "]") + "\"";
        }
        return address;
    }
}
