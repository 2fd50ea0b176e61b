package io.cohort.balancer;

import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Errors Jetty answers itself (malformed requests, 431 for oversize headers, ...) in the same short
 * HTML as {@link ErrorPage}: status and reason phrase only, whatever the message or cause. A head refused while Jetty
 * parses it (431, 414) closes its connection as soon as the page is written, body or not: the head was not parsed, so
 * there is no length to read the rest of a body by, as {@link ErrorPage#refuse} does (a known limit, see the README).
 */
final class BalancerErrorHandler extends ErrorHandler {

    BalancerErrorHandler() {
        setShowStacks(false);
        setShowCauses(false);
        setShowMessageInTitle(false);
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause, Callback callback) {
        ErrorPage.write(response, callback, code, "The request could not be handled (" + HttpStatus.getMessage(code) + ").");
    }
}
