package io.cohort.jpetstore.web;

import jakarta.servlet.http.HttpServletResponse;

/** The request cannot be served as asked; {@link ShopServlet} answers with the status and message. */
final class ClientErrorException extends RuntimeException {
    private final int status;

    private ClientErrorException(int status, String message) {
        super(message);
        this.status = status;
    }

    static ClientErrorException badRequest(String message) {
        return new ClientErrorException(HttpServletResponse.SC_BAD_REQUEST, message);
    }

    static ClientErrorException notFound(String message) {
        return new ClientErrorException(HttpServletResponse.SC_NOT_FOUND, message);
    }

    static ClientErrorException methodNotAllowed(String message) {
        return new ClientErrorException(HttpServletResponse.SC_METHOD_NOT_ALLOWED, message);
    }

    int status() {
        return status;
    }
}
