package io.cohort.balancer;

import java.util.Arrays;
import java.util.List;

/**
 * Run in a JVM of its own by {@link ForwardedForLiteralTest}: {@code trustedRange peer value...}; prints, one line per value,
 * {@code value -> client}, the client {@link ForwardedHeaders} finds behind a trusted peer that sent that
 * {@code X-Forwarded-For} value.
 */
final class ForwardedForProbe {

    private ForwardedForProbe() {
    }

    public static void main(String[] args) {
        ForwardedHeaders headers = new ForwardedHeaders(List.of(args[0]));
        for (String value : Arrays.copyOfRange(args, 2, args.length)) {
            System.out.println(value + " -> " + headers.clientBehind(List.of(value), args[1]));
        }
    }
}
