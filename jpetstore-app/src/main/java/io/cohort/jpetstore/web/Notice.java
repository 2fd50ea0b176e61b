package io.cohort.jpetstore.web;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * One-line confirmations shown after a redirect, carried as {@code ?notice=code} rather than in the session,
 * so that they add nothing to replicate.
 */
enum Notice {
    ADDED("The item is in your cart."),
    CART_UPDATED("Your cart is updated."),
    REMOVED("The item is out of your cart."),
    WELCOME("Welcome! Your account is ready and you are signed on."),
    SIGNED_ON("You are signed on."),
    SIGNED_OFF("You have signed off. See you soon!"),
    ACCOUNT_SAVED("Your account is saved."),
    ORDER_PLACED("Thank you! Your order is placed."),
    ORDER_ALREADY_PLACED("Your order was placed already; it was not placed again.");

    private final String message;

    Notice(String message) {
        this.message = message;
    }

    String code() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    String message() {
        return message;
    }

    static Optional<Notice> fromCode(String code) {
        return Arrays.stream(values()).filter(n -> n.code().equals(code)).findFirst();
    }
}
