package io.cohort.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether two listeners' bind addresses overlap, so that they cannot share a port: the same address however it is
 * written ({@code localhost} and {@code 127.0.0.1}, {@code ::} and {@code 0:0:0:0:0:0:0:0}), or either is a wildcard
 * ({@link InetAddress#isAnyLocalAddress()}). Names are resolved here, at configuration load, which runs before
 * anything starts; a name with several addresses overlaps when any of them does. A name that does not resolve is
 * compared as written (ignoring case): the listener could not bind to it anyway, and that is reported at start.
 */
final class BindAddresses {

    private BindAddresses() {
    }

    static boolean overlap(String first, String second) {
        Optional<List<InetAddress>> a = resolve(first);
        Optional<List<InetAddress>> b = resolve(second);
        if (a.isEmpty() || b.isEmpty()) {
            return first.trim().toLowerCase(Locale.ROOT).equals(second.trim().toLowerCase(Locale.ROOT));
        }
        if (a.get().stream().anyMatch(InetAddress::isAnyLocalAddress) || b.get().stream().anyMatch(InetAddress::isAnyLocalAddress)) {
            return true;
        }
        return a.get().stream().anyMatch(b.get()::contains);
    }

    private static Optional<List<InetAddress>> resolve(String address) {
        try {
            return Optional.of(Arrays.asList(InetAddress.getAllByName(address.trim())));
        } catch (UnknownHostException | SecurityException e) {
            return Optional.empty();
        }
    }
}
