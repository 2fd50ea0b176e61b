package io.cohort.balancer;

import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.internal.HttpConnection;

/**
 * HTTP/1.1 connections that remember the form of the request target of the request they are
 * parsing. Once parsed, {@code GET /x} (origin form) and {@code GET http://elsewhere/x} (absolute
 * form, what a client sends to a forward proxy) look alike in Jetty's request, so the proxy asks
 * {@link #isAbsoluteForm} to refuse forward-proxy requests for other hosts. HTTP/1.1 parses a
 * connection's requests one after the other, so one flag per connection suffices.
 */
final class TargetFormConnectionFactory extends HttpConnectionFactory {

    TargetFormConnectionFactory(HttpConfiguration configuration) {
        super(configuration);
    }

    @Override
    public org.eclipse.jetty.io.Connection newConnection(Connector connector, EndPoint endPoint) {
        TargetFormConnection connection = new TargetFormConnection(getHttpConfiguration(), connector, endPoint);
        connection.setTransferEncodingChunkMaxLength(getTransferEncodingChunkMaxLength());
        return configure(connection, connector, endPoint);
    }

    /** Whether the request's target was written in absolute form ({@code scheme://host/...}). */
    static boolean isAbsoluteForm(Request request) {
        return request.getConnectionMetaData().getConnection() instanceof TargetFormConnection connection && connection.absoluteForm;
    }

    private static final class TargetFormConnection extends HttpConnection {

        private volatile boolean absoluteForm;

        TargetFormConnection(HttpConfiguration configuration, Connector connector, EndPoint endPoint) {
            super(configuration, connector, endPoint);
        }

        @Override
        protected HttpStreamOverHTTP1 newHttpStream(String method, String uri, HttpVersion version) {
            absoluteForm = uri != null && !uri.startsWith("/") && !"*".equals(uri) && !HttpMethod.CONNECT.is(method);
            return super.newHttpStream(method, uri, version);
        }
    }
}
