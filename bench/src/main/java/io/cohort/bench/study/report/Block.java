package io.cohort.bench.study.report;

import java.util.List;

/**
 * One piece of the report's content, rendered alike to Markdown ({@link MarkdownRenderer}) and HTML
 * ({@link HtmlRenderer}). Text is plain: renderers escape it for their format.
 */
sealed interface Block {

    /** A section title; level 1 is the page title. */
    record Heading(int level, String text) implements Block {
    }

    record Paragraph(String text) implements Block {
    }

    /** Preformatted text, such as the command line. */
    record Code(String text) implements Block {
    }

    record Bullets(List<String> items) implements Block {
        public Bullets {
            items = List.copyOf(items);
        }
    }

    /** Links, one per line; {@code href} is relative to the run folder. */
    record Links(List<Link> links) implements Block {
        public Links {
            links = List.copyOf(links);
        }
    }

    record Link(String text, String href) {
    }

    /** A table; every row has as many cells as the header. */
    record Table(List<String> header, List<List<String>> rows) implements Block {
        public Table {
            header = List.copyOf(header);
            rows = rows.stream().map(List::copyOf).toList();
            for (List<String> row : rows) {
                if (row.size() != header.size()) {
                    throw new IllegalArgumentException("row " + row + " does not match header " + header);
                }
            }
        }
    }

    /** A chart: {@code charts/<name>.png} (shown by the report), with its SVG beside it. */
    record Chart(ChartSpec spec) implements Block {
        String svg() {
            return "charts/" + spec.name() + ".svg";
        }

        String png() {
            return "charts/" + spec.name() + ".png";
        }
    }
}
