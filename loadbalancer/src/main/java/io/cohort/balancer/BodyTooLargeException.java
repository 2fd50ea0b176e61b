package io.cohort.balancer;

import java.io.IOException;

/** A request body grew past {@code max-request-body} while it was being forwarded. */
final class BodyTooLargeException extends IOException {

    private static final long serialVersionUID = 1L;

    BodyTooLargeException(long limit) {
        super("request body larger than " + limit + " bytes");
    }
}
