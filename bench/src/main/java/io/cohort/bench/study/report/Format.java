package io.cohort.bench.study.report;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** How the report writes numbers: one locale-independent style for Markdown and HTML alike. */
final class Format {

    private Format() {
    }

    /** A number with the given decimals and thousands separators: {@code 1,234.5}. */
    static String number(double value, int decimals) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }

    /** A ratio with two decimals: {@code 0.97}. */
    static String ratio(double value) {
        return number(value, 2);
    }

    /** A fraction as a percentage: {@code 0.961} → {@code 96.1 %}. */
    static String percent(double fraction) {
        return number(fraction * 100, 1) + " %";
    }

    /** A relative change as a signed percentage: {@code 0.84} → {@code −16.0 %}. */
    static String change(double ratio) {
        double change = (ratio - 1) * 100;
        String text = number(Math.abs(change), 1) + " %";
        return (change < 0 ? "−" : "+") + text;
    }

    /** "2, 4 nodes" or "1 node". */
    static String sizes(List<Integer> sizes) {
        String list = sizes.stream().map(String::valueOf).collect(Collectors.joining(", "));
        return list + (sizes.size() == 1 && sizes.get(0) == 1 ? " node" : " nodes");
    }

    /** A file-name-safe form of a label. */
    static String slug(String label) {
        String slug = label.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
        return slug.isEmpty() ? "x" : slug;
    }
}
