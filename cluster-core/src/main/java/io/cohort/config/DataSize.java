package io.cohort.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A number of bytes, written in configuration files as an integer with a unit: {@code B},
 * {@code KB}, {@code MB}, {@code GB} (powers of 1000) or {@code KiB}, {@code MiB}, {@code GiB}
 * (powers of 1024), e.g. {@code 512KiB}, {@code 1MB}. No space, no fractions.
 *
 * @param bytes the size in bytes, never negative
 */
public record DataSize(long bytes) implements Comparable<DataSize> {

    private static final Pattern SYNTAX = Pattern.compile("([0-9]+)(B|KB|MB|GB|KiB|MiB|GiB)");

    /** Units from largest to smallest, so {@link #toString()} picks the largest exact one. */
    private enum Unit {
        GIB("GiB", 1L << 30), GB("GB", 1_000_000_000L), MIB("MiB", 1L << 20), MB("MB", 1_000_000L),
        KIB("KiB", 1L << 10), KB("KB", 1_000L), B("B", 1L);

        final String symbol;
        final long factor;

        Unit(String symbol, long factor) {
            this.symbol = symbol;
            this.factor = factor;
        }

        static Unit of(String symbol) {
            for (Unit unit : values()) {
                if (unit.symbol.equals(symbol)) {
                    return unit;
                }
            }
            throw new IllegalArgumentException("unknown size unit " + symbol);
        }
    }

    public DataSize {
        if (bytes < 0) {
            throw new IllegalArgumentException("a size cannot be negative: " + bytes);
        }
    }

    public static DataSize ofBytes(long bytes) {
        return new DataSize(bytes);
    }

    /**
     * Parses {@code <integer><unit>}, e.g. {@code 1MB} (1,000,000 bytes) or {@code 1MiB} (1,048,576).
     *
     * @throws IllegalArgumentException if the text has another form or the size overflows a long
     */
    public static DataSize parse(String text) {
        Matcher m = SYNTAX.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a size with unit B, KB, MB, GB, KiB, MiB or GiB: " + text);
        }
        try {
            return new DataSize(Math.multiplyExact(Long.parseLong(m.group(1)), Unit.of(m.group(2)).factor));
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException("size too large: " + text, e);
        }
    }

    /** The size with the largest unit that divides it exactly, e.g. {@code 1MB}, {@code 1536KiB}, {@code 7B}. */
    @Override
    public String toString() {
        for (Unit unit : Unit.values()) {
            if (bytes != 0 && bytes % unit.factor == 0) {
                return bytes / unit.factor + unit.symbol;
            }
        }
        return "0B";
    }

    @Override
    public int compareTo(DataSize other) {
        return Long.compare(bytes, other.bytes);
    }
}
