package io.cohort.cli.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * The fixed TCP port ranges a local cluster will listen on, checked before anything starts: each lies within 1 to
 * 65535, and no two overlap (a node or balancer would otherwise fail to bind after others were started). A range
 * whose base is 0 takes free ports and is not checked. Not thread-safe; build one, then {@link #check()}.
 */
final class PortRanges {

    private static final int MAX_PORT = 65_535;

    /** {@code count} ports from {@code base}, set by {@code option}; {@code unit} says what gets one, e.g. "node". */
    private record Range(String option, int base, int count, String unit) {

        int last() {
            return base + count - 1;
        }

        boolean overlaps(Range other) {
            return base <= other.last() && other.base <= last();
        }

        @Override
        public String toString() {
            return option + " " + base + (count == 1 ? " (port " + base + ")" : " (ports " + base + "-" + last() + ")");
        }
    }

    private final List<Range> ranges = new ArrayList<>();

    /** Adds the ports {@code base .. base+count-1}; nothing when {@code base} is 0 (free ports) or {@code count} 0. */
    PortRanges add(String option, int base, int count, String unit) {
        if (base != 0 && count > 0) {
            ranges.add(new Range(option, base, count, unit));
        }
        return this;
    }

    /** @throws IllegalArgumentException naming the option at fault: a range past 65535, or two that overlap */
    void check() {
        for (Range range : ranges) {
            if (range.count() == 1 && (range.base() < 1 || range.base() > MAX_PORT)) {
                throw new IllegalArgumentException(range.option() + " " + range.base() + " is no port; use 1 to " + MAX_PORT
                        + ", or 0 for a free port");
            }
            if (range.base() < 1 || range.last() > MAX_PORT) {
                throw new IllegalArgumentException(range.option() + " " + range.base() + " does not leave room for "
                        + range.count() + " ports (one per " + range.unit() + "); use 1 to " + (MAX_PORT - range.count() + 1)
                        + ", or 0 for free ports");
            }
        }
        for (int i = 1; i < ranges.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (ranges.get(i).overlaps(ranges.get(j))) {
                    throw new IllegalArgumentException(ranges.get(i) + " overlaps " + ranges.get(j)
                            + "; choose ranges that do not overlap, or 0 for free ports");
                }
            }
        }
    }
}
