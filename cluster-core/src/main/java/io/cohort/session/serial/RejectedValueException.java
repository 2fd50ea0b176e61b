package io.cohort.session.serial;

/** A serialized session value that was not deserialized: filtered out, unknown class or malformed. */
public final class RejectedValueException extends Exception {

    private final String attribute;

    public RejectedValueException(String attribute, String reason, Throwable cause) {
        super("Session attribute '" + attribute + "' " + reason, cause);
        this.attribute = attribute;
    }

    public String attribute() {
        return attribute;
    }
}
