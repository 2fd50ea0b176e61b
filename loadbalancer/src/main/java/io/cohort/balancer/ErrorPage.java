package io.cohort.balancer;

import io.cohort.net.LingeringClose;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The balancer's own error answers: a few lines of HTML with the status and one sentence, never a
 * stack trace, an exception text or anything the client sent.
 */
final class ErrorPage {

    static final String NO_MEMBER = "No server is available to handle this request. Please try again in a moment.";
    static final String BAD_GATEWAY = "The server handling this request did not answer. Please try again.";
    static final String GATEWAY_TIMEOUT = "The server handling this request took too long to answer.";
    static final String TOO_LARGE = "The request body is larger than this site accepts.";
    static final String NOT_A_PROXY = "This server is a reverse proxy for its own site only.";
    static final String BAD_TARGET = "The address of this request is malformed.";
    static final String BAD_BODY = "The body of this request ended early or was malformed.";
    static final String OVERLOADED = "This site is busier than it can queue requests for. Please try again in a moment.";
    static final String BODY_TIMEOUT = "The body of this request did not arrive in time.";

    private ErrorPage() {
    }

    /**
     * Writes the page as the balancer's own answer to {@code request} before it read the whole body (a refusal before
     * it read any, or 502/504/408/413/400 once an attempt that read part of it failed): when the request carries one,
     * the answer says {@code Connection: close}, and the request completes only once the rest of the body has been
     * read and dropped ({@link LingeringClose}: at most 2 MiB and 10 s, holding no thread). Jetty would otherwise close
     * the connection as soon as the page is written, and the body still arriving would make the kernel reset it under
     * a client that sends its whole body before it reads. A {@link BufferedBody} was read whole. The rest can only be
     * read if nothing failed the request's body ({@link GuardedRequestContent} never does); a body that ended early or
     * was malformed has no rest, and the request completes at once.
     */
    static void refuse(Request request, Response response, Callback callback, int status, String sentence) {
        Callback completion = Request.as(request, BufferedBody.class) == null && !response.isCommitted()
                ? LingeringClose.forEarlyAnswer(request, response, callback) : callback;
        write(response, completion, status, sentence);
    }

    /** Writes the page, replacing whatever status and headers the response had, unless it is committed. */
    static void write(Response response, Callback callback, int status, String sentence) {
        if (response.isCommitted()) {
            callback.failed(new IllegalStateException("response committed before error " + status));
            return;
        }
        String title = status + " " + HttpStatus.getMessage(status);
        String html = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + title + "</title></head>\n<body><h1>" + title
                + "</h1>\n<p>" + escape(sentence) + "</p></body></html>\n";
        byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html;charset=utf-8");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
