package io.cohort.jpetstore.data;

/** A database operation failed for a reason the caller cannot fix (connection lost, bad schema, ...). */
public class DataAccessException extends RuntimeException {
    public DataAccessException(String message, Throwable cause) {
        super(message, cause);
    }

    public DataAccessException(String message) {
        super(message);
    }
}
