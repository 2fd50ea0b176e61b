package io.cohort.config;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Checks configuration files without starting anything:
 * {@code java io.cohort.config.ConfigCheck cohort.xml [--web WEB-INF/cohort-web.xml ...]}.
 * Prints {@code <file>: OK} for each good file and the {@link ConfigException} message for a bad
 * one, then exits 0 if all are good, 1 if one is not (or does not exist), 2 on wrong usage, before any file is
 * read. Launchers reuse
 * {@link #run} to fail the same way at start.
 */
public final class ConfigCheck {

    /** Every file is valid. */
    public static final int OK = 0;
    /** A file is invalid or unreadable. */
    public static final int INVALID = 1;
    /** The arguments are wrong. */
    public static final int USAGE = 2;

    private static final String WEB = "--web";
    private static final String USAGE_LINE = "usage: ConfigCheck <cohort.xml> ... [--web <cohort-web.xml> ...]";

    private ConfigCheck() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Checks the files named by {@code args}: node or balancer files, then web overrides after {@code --web}. The
     * arguments are checked first, so a usage error ({@code --web} with no file after it, an unknown option) checks
     * no file. A named web override must exist (a web application without one simply has none).
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Optional<String> usageError = usageError(args);
        if (usageError.isPresent()) {
            err.println(usageError.get());
            err.println(USAGE_LINE);
            return USAGE;
        }
        boolean web = false;
        int status = OK;
        for (String arg : args) {
            if (arg.equals(WEB)) {
                web = true;
                continue;
            }
            try {
                if (web) {
                    ConfigLoader.readWebOverride(Path.of(arg));
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

    /** What is wrong with the arguments as a whole, if anything. */
    private static Optional<String> usageError(String[] args) {
        if (args.length == 0) {
            return Optional.of("no file to check");
        }
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals(WEB) && (i + 1 == args.length || args[i + 1].equals(WEB))) {
                return Optional.of(WEB + " needs a cohort-web.xml file after it");
            }
            if (args[i].startsWith("-") && !args[i].equals(WEB)) {
                return Optional.of("unknown option " + args[i]);
            }
        }
        return Optional.empty();
    }
}
