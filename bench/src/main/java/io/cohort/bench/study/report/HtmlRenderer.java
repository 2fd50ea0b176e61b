package io.cohort.bench.study.report;

import java.util.List;

/** Renders blocks as one HTML page that shows the charts' SVG files; every text is escaped. */
final class HtmlRenderer {

    private static final String STYLE = """
            body { font-family: sans-serif; margin: 2em auto; max-width: 1200px; color: #222; line-height: 1.4; }
            table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
            th, td { border: 1px solid #ccc; padding: 0.3em 0.5em; text-align: left; vertical-align: top; }
            th { background: #f0f0f0; }
            pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; }
            figure { margin: 1em 0; }
            figure img { max-width: 100%; border: 1px solid #eee; }
            """;

    String render(String title, List<Block> blocks) {
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(escape(title)).append("</title>\n<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n");
        for (Block block : blocks) {
            if (block instanceof Block.Heading h) {
                html.append("<h").append(h.level()).append('>').append(escape(h.text()))
                        .append("</h").append(h.level()).append(">\n");
            } else if (block instanceof Block.Paragraph p) {
                html.append("<p>").append(escape(p.text())).append("</p>\n");
            } else if (block instanceof Block.Code c) {
                html.append("<pre><code>").append(escape(c.text())).append("</code></pre>\n");
            } else if (block instanceof Block.Bullets b) {
                html.append("<ul>\n");
                b.items().forEach(item -> html.append("<li>").append(escape(item)).append("</li>\n"));
                html.append("</ul>\n");
            } else if (block instanceof Block.Links l) {
                html.append("<ul>\n");
                l.links().forEach(link -> html.append("<li><a href=\"").append(escape(link.href())).append("\">")
                        .append(escape(link.text())).append("</a></li>\n"));
                html.append("</ul>\n");
            } else if (block instanceof Block.Table t) {
                table(html, t);
            } else if (block instanceof Block.Chart c) {
                html.append("<figure><img src=\"").append(escape(c.png())).append("\" alt=\"")
                        .append(escape(c.spec().title())).append("\"><figcaption><a href=\"").append(escape(c.svg()))
                        .append("\">SVG</a></figcaption></figure>\n");
            }
        }
        return html.append("</body>\n</html>\n").toString();
    }

    private static void table(StringBuilder html, Block.Table table) {
        html.append("<table>\n<thead><tr>");
        table.header().forEach(cell -> html.append("<th>").append(escape(cell)).append("</th>"));
        html.append("</tr></thead>\n<tbody>\n");
        for (List<String> row : table.rows()) {
            html.append("<tr>");
            row.forEach(cell -> html.append("<td>").append(escape(cell).replace("\n", "<br>")).append("</td>"));
            html.append("</tr>\n");
        }
        html.append("</tbody>\n</table>\n");
    }

    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
