package io.cohort.cli;

/**
 * A failure that a command reports as one line on stderr, without a stack trace, with its exit code.
 * Throw it for problems the user can act on (a missing file, a refused connection); anything else
 * is a bug and is reported by {@link Main} as such.
 */
public final class CommandFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int exitCode;

    public CommandFailure(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public CommandFailure(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** A problem of the command line or of a configuration file: exit code {@link ExitCode#USAGE}. */
    public static CommandFailure usage(String message) {
        return new CommandFailure(ExitCode.USAGE, message);
    }

    /** A run-time failure: exit code {@link ExitCode#FAILURE}. */
    public static CommandFailure failed(String message) {
        return new CommandFailure(ExitCode.FAILURE, message);
    }

    public int exitCode() {
        return exitCode;
    }
}
