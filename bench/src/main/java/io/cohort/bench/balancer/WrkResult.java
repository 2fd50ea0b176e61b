package io.cohort.bench.balancer;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The figures of one {@code wrk --latency} run, parsed from its text output.
 *
 * @param requestsPerSecond "Requests/sec"
 * @param p50Millis         latency percentiles from "Latency Distribution", in milliseconds
 * @param errors            non-2xx/3xx responses plus socket errors (connect, read, write, timeout)
 */
public record WrkResult(double requestsPerSecond, double p50Millis, double p75Millis, double p90Millis,
                        double p99Millis, long requests, long errors) {

    private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
    private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in");
    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses:\\s+(\\d+)");
    private static final Pattern SOCKET = Pattern.compile(
            "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");

    public static WrkResult parse(String output) {
        double rate = Double.parseDouble(find(RATE, output, "Requests/sec"));
        long requests = Long.parseLong(find(REQUESTS, output, "requests in"));
        long errors = 0;
        Matcher non2xx = NON_2XX.matcher(output);
        if (non2xx.find()) {
            errors += Long.parseLong(non2xx.group(1));
        }
        Matcher socket = SOCKET.matcher(output);
        if (socket.find()) {
            for (int i = 1; i <= 4; i++) {
                errors += Long.parseLong(socket.group(i));
            }
        }
        return new WrkResult(rate, percentile(output, "50"), percentile(output, "75"), percentile(output, "90"),
                percentile(output, "99"), requests, errors);
    }

    private static double percentile(String output, String which) {
        Matcher m = Pattern.compile("^\\s*" + which + "(?:\\.000)?%\\s+([0-9.]+)(us|ms|s|m)\\s*$", Pattern.MULTILINE)
                .matcher(output);
        if (!m.find()) {
            throw new IllegalArgumentException("no " + which + "% latency in wrk output (was --latency given?)");
        }
        double value = Double.parseDouble(m.group(1));
        return switch (m.group(2)) {
            case "us" -> value / 1000;
            case "ms" -> value;
            case "s" -> value * 1000;
            default -> value * 60_000;
        };
    }

    private static String find(Pattern pattern, String output, String what) {
        Matcher m = pattern.matcher(output);
        if (!m.find()) {
            throw new IllegalArgumentException("no '" + what + "' in wrk output:\n" + output);
        }
        return m.group(1);
    }

    public String csv() {
        return String.format(Locale.ROOT, "%.2f,%.3f,%.3f,%.3f,%.3f,%d,%d", requestsPerSecond, p50Millis, p75Millis,
                p90Millis, p99Millis, requests, errors);
    }

    public static String csvHeader() {
        return "requests_per_s,p50_ms,p75_ms,p90_ms,p99_ms,requests,errors";
    }
}
