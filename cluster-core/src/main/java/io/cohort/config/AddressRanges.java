package io.cohort.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Reads an {@code addressRanges} attribute: IP addresses and CIDR ranges separated by spaces, or
 * {@code none}. The schema allows IP literals only, so nothing is looked up; a range must have a
 * prefix no longer than its address and no host bits set (as the connector's address set requires).
 */
final class AddressRanges {

    private static final String EXPECTED =
            "IP addresses and CIDR ranges whose host bits are zero, e.g. 10.0.0.5 10.1.0.0/16, or none";

    private AddressRanges() {
    }

    /** The ranges of {@code value}, each checked; empty for {@code none}. */
    static List<String> parse(SourceElement at, String attribute, String value) throws ConfigException {
        String trimmed = value.strip();
        if (trimmed.equals("none")) {
            return List.of();
        }
        List<String> ranges = List.of(trimmed.split("\\s+"));
        for (String range : ranges) {
            String problem = problem(range);
            if (problem != null) {
                throw at.attributeError(attribute, "invalid address or range \"" + range + "\" (" + problem + ")", EXPECTED);
            }
        }
        return ranges;
    }

    /** What is wrong with {@code range}, or null. */
    private static String problem(String range) {
        int slash = range.indexOf('/');
        String literal = slash < 0 ? range : range.substring(0, slash);
        if (!literal.matches("[0-9.]+") && literal.indexOf(':') < 0) {
            return "not an IP address";
        }
        byte[] address;
        try {
            address = InetAddress.getByName(literal).getAddress();
        } catch (UnknownHostException e) {
            return "not an IP address";
        }
        if (slash < 0) {
            return null;
        }
        int bits = Integer.parseInt(range.substring(slash + 1));
        if (bits > address.length * 8) {
            return "a prefix of " + bits + " bits on a " + address.length * 8 + "-bit address";
        }
        for (int bit = bits; bit < address.length * 8; bit++) {
            if ((address[bit / 8] & (0x80 >> (bit % 8))) != 0) {
                return "host bits set beyond the /" + bits + " prefix";
            }
        }
        return null;
    }
}
