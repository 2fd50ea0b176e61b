package io.cohort.cli.admin;

/**
 * An admin API call that failed: the node could not be reached, or answered with an error. The
 * message is short and meant for the user, e.g. {@code 422: WEB-INF/web.xml is not well formed}.
 */
public final class AdminCallException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The HTTP status, or 0 when there was no answer. */
    private final int status;

    public AdminCallException(int status, String message) {
        super(message);
        this.status = status;
    }

    public AdminCallException(String message, Throwable cause) {
        super(message, cause);
        this.status = 0;
    }

    /**
     * The user-facing message of a failed admin call as a {@link java.util.concurrent.CompletableFuture}
     * reports it (wrapped in a {@code CompletionException} or {@code ExecutionException}).
     */
    public static String messageOf(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof java.util.concurrent.CompletionException
                || cause instanceof java.util.concurrent.ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause instanceof AdminCallException || cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }

    public int status() {
        return status;
    }
}
