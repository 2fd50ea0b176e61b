package io.cohort.jpetstore.web;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;

/** Reads single request parameters, rejecting bad ones with a 400 and a message a person can act on. */
final class RequestParameters {
    static final int MAX_ID_LENGTH = 40;

    private RequestParameters() {
    }

    /** A short identifier such as an item id. */
    static String requiredId(HttpServletRequest request, String name) {
        String value = optional(request, name).orElseThrow(
                () -> ClientErrorException.badRequest("The request is missing its '" + name + "'."));
        if (value.length() > MAX_ID_LENGTH) {
            throw ClientErrorException.badRequest("The '" + name + "' is too long.");
        }
        return value;
    }

    /** A trimmed, non-empty value. */
    static Optional<String> optional(HttpServletRequest request, String name) {
        String value = request.getParameter(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }

    /** A whole number of at least 1, or the fallback when absent. */
    static int positiveInt(HttpServletRequest request, String name, int fallback) {
        Optional<String> value = optional(request, name);
        if (value.isEmpty()) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(value.get());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw ClientErrorException.badRequest("'" + name + "' must be a whole number of at least 1.");
    }
}
