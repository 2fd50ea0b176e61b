package io.cohort.bench;

/** The {@code --name value} options of the benchmark mains that take no library for their few arguments. */
final class BenchArgs {

    private BenchArgs() {
    }

    /** The value after {@code name}, or {@code fallback} when the option is absent. */
    static String text(String[] args, String name, String fallback) {
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return fallback;
    }

    /**
     * The whole number after {@code name}, or {@code fallback}.
     *
     * @throws NumberFormatException if the value is not a whole number
     */
    static int option(String[] args, String name, int fallback) {
        return Integer.parseInt(text(args, name, Integer.toString(fallback)));
    }
}
