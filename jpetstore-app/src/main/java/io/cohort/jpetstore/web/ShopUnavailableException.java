package io.cohort.jpetstore.web;

/** The shop cannot serve yet: its DataSource is missing or its database could not be prepared. */
final class ShopUnavailableException extends Exception {
    ShopUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
