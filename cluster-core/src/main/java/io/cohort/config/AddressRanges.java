package io.cohort.config;

import java.util.List;
import org.eclipse.jetty.util.InetAddressPattern;

/** Reads an {@code addressRanges} attribute: IP addresses and CIDR ranges separated by spaces, or {@code none}. */
final class AddressRanges {

    private AddressRanges() {
    }

    /**
     * The ranges of {@code value}, each checked as Jetty's {@code InetAddressSet} will read it (the schema already
     * allows only IP literals, so nothing is looked up); empty for {@code none}.
     */
    static List<String> parse(SourceElement at, String attribute, String value) throws ConfigException {
        String trimmed = value.strip();
        if (trimmed.equals("none")) {
            return List.of();
        }
        List<String> ranges = List.of(trimmed.split("\\s+"));
        for (String range : ranges) {
            try {
                InetAddressPattern.from(range);
            } catch (IllegalArgumentException e) {
                throw at.attributeError(attribute, "invalid address or range \"" + range + "\" ("
                        + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()) + ")",
                        "IP addresses and CIDR ranges whose host bits are zero, e.g. 10.0.0.5 10.1.0.0/16, or none");
            }
        }
        return ranges;
    }
}
