package io.cohort.config;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Checks configuration files without starting anything:
 * {@code java io.cohort.config.ConfigCheck cohort.xml [--web WEB-INF/cohort-web.xml ...]}.
 * Prints {@code <file>: OK} for each good file and the {@link ConfigException} message for a bad
 * one, then exits 0 if all are good, 1 if one is not, 2 on wrong usage. Launchers reuse
 * {@link #run} to fail the same way at start.
 */
public final class ConfigCheck {

    /** Every file is valid. */
    public static final int OK = 0;
    /** A file is invalid or unreadable. */
    public static final int INVALID = 1;
    /** The arguments are wrong. */
    public static final int USAGE = 2;

    private ConfigCheck() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Checks the files named by {@code args}; node or balancer files, or web overrides after {@code --web}. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.println("usage: ConfigCheck <cohort.xml> ... [--web <cohort-web.xml> ...]");
            return USAGE;
        }
        boolean web = false;
        int status = OK;
        for (String arg : args) {
            if (arg.equals("--web")) {
                web = true;
                continue;
            }
            try {
                if (web) {
                    ConfigLoader.loadWebOverride(Path.of(arg));
                } else {
                    ConfigLoader.loadFile(Path.of(arg));
                }
                out.println(arg + ": OK");
            } catch (ConfigException e) {
                err.println(e.getMessage());
                status = INVALID;
            }
        }
        return status;
    }
}
