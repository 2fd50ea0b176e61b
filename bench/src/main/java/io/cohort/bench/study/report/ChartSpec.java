package io.cohort.bench.study.report;

import java.util.List;
import java.util.Objects;

/**
 * One chart of the report, independent of the charting library: a line chart, or a bar chart when it has
 * categories (each line is then one series of bars, its y values one per category; x is unused).
 *
 * @param name    file name without extension, unique within the run's {@code charts/} folder
 * @param title   the chart's title
 * @param xAxis   x axis label with unit
 * @param yAxis   y axis label with unit
 * @param lines   the data lines, in legend order (at least one)
 * @param integerX whether x values are whole numbers (node counts)
 * @param categories the bars' categories, in order; empty for a line chart
 */
record ChartSpec(String name, String title, String xAxis, String yAxis, List<Line> lines, boolean integerX,
        List<String> categories) {

    /** A line chart. */
    ChartSpec(String name, String title, String xAxis, String yAxis, List<Line> lines, boolean integerX) {
        this(name, title, xAxis, yAxis, lines, integerX, List.of());
    }

    /** A bar chart: one series of bars per line, {@code line.y()} holding one value per category. */
    static ChartSpec bars(String name, String title, String yAxis, List<String> categories, List<Line> lines) {
        return new ChartSpec(name, title, "", yAxis, lines, false, categories);
    }

    /** Whether this is a bar chart. */
    boolean bars() {
        return !categories.isEmpty();
    }

    /** How a line is drawn. */
    enum Style {
        /** A measured series of a few points: solid line with markers. */
        DATA,
        /** A measured series over time: solid line, no markers. */
        TIMELINE,
        /** A reference such as linear scaling: dashed grey, no markers. */
        REFERENCE,
        /** An event such as a kill: a vertical red line. */
        EVENT
    }

    /** One named line; x and y have the same length. */
    record Line(String name, List<Double> x, List<Double> y, Style style) {
        Line {
            Objects.requireNonNull(name, "name");
            x = List.copyOf(x);
            y = List.copyOf(y);
            if (x.size() != y.size() || x.isEmpty()) {
                throw new IllegalArgumentException("line " + name + " needs as many x as y values, at least one");
            }
        }
    }

    ChartSpec {
        if (!name.matches("[a-z0-9-]+")) {
            throw new IllegalArgumentException("chart name must be a file name: " + name);
        }
        lines = List.copyOf(lines);
        categories = List.copyOf(categories);
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("chart " + name + " has no line");
        }
        for (Line line : lines) {
            if (!categories.isEmpty() && line.y().size() != categories.size()) {
                throw new IllegalArgumentException("bar series " + line.name() + " of chart " + name + " needs one value "
                        + "per category (" + categories.size() + "), has " + line.y().size());
            }
        }
    }
}
