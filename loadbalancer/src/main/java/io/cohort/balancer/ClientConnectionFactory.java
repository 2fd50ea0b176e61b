package io.cohort.balancer;

import java.time.Duration;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.internal.HttpConnection;

/**
 * The balancer's HTTP/1.1 client connections. Each one
 * <ul>
 *   <li>remembers the form of the request target it is parsing. Once parsed, {@code GET /x} (origin
 *       form) and {@code GET http://elsewhere/x} (absolute form, what a client sends to a forward proxy)
 *       look alike in Jetty's request, so the proxy asks {@link #isAbsoluteForm} to refuse forward-proxy
 *       requests for other hosts. HTTP/1.1 parses a connection's requests one after the other, so one
 *       flag per connection suffices;</li>
 *   <li>gives its client {@code header-timeout} to deliver each request head once it has begun sending
 *       one ({@link HeadDeadline}). The idle timeout alone restarts with every byte, so a client sending
 *       a header line now and then would keep the connection for ever;</li>
 *   <li>has a {@link ClientGoneWatch}, which the proxy starts while a request waits for its member's answer
 *       ({@link #goneWatch}). The connection stops it before it completes each request, and closes after the answer
 *       when the watch read the start of another request.</li>
 * </ul>
 */
final class ClientConnectionFactory extends HttpConnectionFactory {

    private final Duration headerTimeout;
    private final ClientConnectionClosures closures;

    ClientConnectionFactory(HttpConfiguration configuration, Duration headerTimeout, ClientConnectionClosures closures) {
        super(configuration);
        this.headerTimeout = headerTimeout;
        this.closures = closures;
    }

    @Override
    public org.eclipse.jetty.io.Connection newConnection(Connector connector, EndPoint endPoint) {
        ClientConnection connection = new ClientConnection(getHttpConfiguration(), connector, endPoint);
        connection.setTransferEncodingChunkMaxLength(getTransferEncodingChunkMaxLength());
        return configure(connection, connector, endPoint);
    }

    /** The watch for {@code request}'s client going away, or null when the request came through another connection. */
    static ClientGoneWatch goneWatch(Request request) {
        return request.getConnectionMetaData().getConnection() instanceof ClientConnection connection ? connection.goneWatch : null;
    }

    /** Whether the request's target was written in absolute form ({@code scheme://host/...}). */
    static boolean isAbsoluteForm(Request request) {
        return request.getConnectionMetaData().getConnection() instanceof ClientConnection connection && connection.absoluteForm;
    }

    private final class ClientConnection extends HttpConnection {

        private final HeadDeadline headDeadline;
        private final ClientGoneWatch goneWatch;
        private volatile boolean absoluteForm;

        ClientConnection(HttpConfiguration configuration, Connector connector, EndPoint endPoint) {
            super(configuration, connector, endPoint);
            headDeadline = new HeadDeadline(connector.getScheduler(), headerTimeout, this::getBytesIn, () -> {
                closures.closed(ClientConnectionClosures.Reason.HEADER_TIMEOUT, endPoint.getRemoteSocketAddress());
                endPoint.close();
            });
            goneWatch = new ClientGoneWatch(endPoint);
        }

        @Override
        public void onOpen() {
            headDeadline.arm(); // before the first fill: the head may be parsed on another thread as soon as it arrives
            super.onOpen();
        }

        @Override
        public void onClose(Throwable cause) {
            headDeadline.destroy();
            super.onClose(cause);
        }

        @Override
        protected HttpStreamOverHTTP1 newHttpStream(String method, String uri, HttpVersion version) {
            absoluteForm = uri != null && !uri.startsWith("/") && !"*".equals(uri) && !HttpMethod.CONNECT.is(method);
            return new DeadlineStream(method, uri, version);
        }

        /**
         * A request on this connection: its head ends the deadline, its end starts the next one, and stops the
         * {@link ClientGoneWatch} first (Jetty reads the next request then); its answer closes the connection when the
         * watch read the start of another request.
         */
        private final class DeadlineStream extends HttpStreamOverHTTP1 {

            DeadlineStream(String method, String uri, HttpVersion version) {
                super(method, uri, version);
            }

            @Override
            public Runnable headerComplete() {
                headDeadline.disarm();
                return super.headerComplete();
            }

            @Override
            public void prepareResponse(HttpFields.Mutable headers) {
                if (goneWatch.closeAfterAnswer()) {
                    headers.put(HttpFields.CONNECTION_CLOSE);
                }
                super.prepareResponse(headers);
            }

            @Override
            public void succeeded() {
                goneWatch.stop();
                headDeadline.arm(); // before the next request on this connection is parsed
                super.succeeded();
            }

            @Override
            public void failed(Throwable failure) {
                goneWatch.stop();
                headDeadline.arm();
                super.failed(failure);
            }
        }
    }
}
