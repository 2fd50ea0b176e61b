package io.cohort.replication.wire;

/**
 * A frame that is not a valid replication message: wrong magic or format version, an unknown type,
 * a length beyond its bound or beyond the frame, trailing bytes, or a failed authentication check.
 * The receiver drops the frame, counts it and carries on.
 */
public class MalformedMessageException extends Exception {

    public MalformedMessageException(String reason) {
        super(reason);
    }
}
