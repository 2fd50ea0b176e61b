package io.cohort.config;

import java.util.Objects;

/**
 * A configuration file that Cohort refuses, with the place and the reason. The message is one line,
 * {@code <file>:<line>:<column>: <what is wrong>; expected <what was expected>}, the form compilers
 * use, so editors and terminals can jump to it. Lines and columns start at 1; a file that cannot be
 * read at all is reported at 1:1. Messages never contain secret values.
 */
public final class ConfigException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String systemId;
    private final int line;
    private final int column;
    private final String problem;
    private final String expected;

    /**
     * @param systemId the file, as the user named it
     * @param line     1-based line
     * @param column   1-based column
     * @param problem  what is wrong, e.g. {@code unknown element <foo> in <cluster>}
     * @param expected what would have been right, completing "expected ...", e.g. {@code an integer ≥ 1}
     */
    public ConfigException(String systemId, int line, int column, String problem, String expected) {
        this(systemId, line, column, problem, expected, null);
    }

    public ConfigException(String systemId, int line, int column, String problem, String expected, Throwable cause) {
        super(systemId + ":" + line + ":" + column + ": " + problem + "; expected " + expected, cause);
        this.systemId = Objects.requireNonNull(systemId, "systemId");
        this.line = line;
        this.column = column;
        this.problem = Objects.requireNonNull(problem, "problem");
        this.expected = Objects.requireNonNull(expected, "expected");
    }

    /** The file, as named by the caller of {@link ConfigLoader}. */
    public String systemId() {
        return systemId;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }

    /** What is wrong, without location or expectation. */
    public String problem() {
        return problem;
    }

    /** What was expected instead. */
    public String expected() {
        return expected;
    }
}
