package io.cohort.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain-text table with left-aligned columns, as {@code docker ps} or {@code kubectl get} print them. */
public final class TextTable {

    private static final String GAP = "  ";

    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    public TextTable(String... headers) {
        this.headers = List.of(headers);
    }

    /** Adds a row; it must have one cell per header. */
    public TextTable row(String... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException("expected " + headers.size() + " cells, got " + cells.length);
        }
        rows.add(List.of(cells));
        return this;
    }

    public void print(PrintWriter out) {
        int[] widths = new int[headers.size()];
        for (List<String> line : lines()) {
            for (int i = 0; i < widths.length; i++) {
                widths[i] = Math.max(widths[i], line.get(i).length());
            }
        }
        for (List<String> line : lines()) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < widths.length; i++) {
                String cell = line.get(i);
                text.append(cell);
                if (i < widths.length - 1) {
                    text.append(" ".repeat(widths[i] - cell.length())).append(GAP);
                }
            }
            out.println(text.toString().stripTrailing());
        }
        out.flush();
    }

    private List<List<String>> lines() {
        List<List<String>> lines = new ArrayList<>(rows.size() + 1);
        lines.add(headers);
        lines.addAll(rows);
        return lines;
    }
}
