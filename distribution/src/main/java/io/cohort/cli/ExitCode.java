package io.cohort.cli;

/** The exit codes of every {@code cohort} command. */
public final class ExitCode {

    /** The command did what it was asked. */
    public static final int OK = 0;
    /** Something failed at run time: a node did not start, a deployment failed, a node is down. */
    public static final int FAILURE = 1;
    /** The command line or a configuration file is wrong; nothing was started or changed. */
    public static final int USAGE = 2;

    private ExitCode() {
    }
}
