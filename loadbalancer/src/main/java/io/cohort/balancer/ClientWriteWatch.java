package io.cohort.balancer;

import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpVersion;

/**
 * The member's response as Jetty's proxy sees it while it writes a chunk of it to the client: when that write fails,
 * Jetty aborts the member's response, and this notes on the {@link Exchange} that the failure was the client's before
 * it passes the abort on. Everything else is the member's response itself.
 */
final class ClientWriteWatch implements Response {

    private final Response fromMember;
    private final Exchange exchange;

    ClientWriteWatch(Response fromMember, Exchange exchange) {
        this.fromMember = fromMember;
        this.exchange = exchange;
    }

    boolean watches(Response response) {
        return response == fromMember;
    }

    @Override
    public CompletableFuture<Boolean> abort(Throwable clientWriteFailure) {
        exchange.clientWriteFailed(true);
        return fromMember.abort(clientWriteFailure);
    }

    @Override
    public Request getRequest() {
        return fromMember.getRequest();
    }

    @Override
    public HttpVersion getVersion() {
        return fromMember.getVersion();
    }

    @Override
    public int getStatus() {
        return fromMember.getStatus();
    }

    @Override
    public String getReason() {
        return fromMember.getReason();
    }

    @Override
    public HttpFields getHeaders() {
        return fromMember.getHeaders();
    }

    @Override
    public HttpFields getTrailers() {
        return fromMember.getTrailers();
    }
}
