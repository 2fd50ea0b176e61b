package io.cohort.bench.study.report;

import java.util.List;

/** Renders blocks as GitHub-flavoured Markdown; text from the data cannot break a table or inject HTML. */
final class MarkdownRenderer {

    String render(List<Block> blocks) {
        StringBuilder md = new StringBuilder();
        for (Block block : blocks) {
            if (block instanceof Block.Heading h) {
                md.append("#".repeat(h.level())).append(' ').append(inline(h.text()))
                        .append("\n\n");
            } else if (block instanceof Block.Paragraph p) {
                md.append(inline(p.text())).append("\n\n");
            } else if (block instanceof Block.Code c) {
                md.append("```\n").append(c.text().replace("```", "` ` `")).append("\n```\n\n");
            } else if (block instanceof Block.Bullets b) {
                b.items().forEach(item -> md.append("- ").append(inline(item)).append('\n'));
                md.append('\n');
            } else if (block instanceof Block.Links l) {
                l.links().forEach(link -> md.append("- [").append(inline(link.text()).replace("]", "\\]"))
                        .append("](").append(link.href()).append(")\n"));
                md.append('\n');
            } else if (block instanceof Block.Table t) {
                table(md, t);
            } else if (block instanceof Block.Chart c) {
                md.append("![").append(inline(c.spec().title()).replace("]", "\\]"))
                        .append("](").append(c.png()).append(") ([SVG](").append(c.svg()).append("))\n\n");
            }
        }
        return md.toString();
    }

    private static void table(StringBuilder md, Block.Table table) {
        md.append('|');
        table.header().forEach(cell -> md.append(' ').append(cell(cell)).append(" |"));
        md.append("\n|");
        table.header().forEach(cell -> md.append("---|"));
        md.append('\n');
        for (List<String> row : table.rows()) {
            md.append('|');
            row.forEach(cell -> md.append(' ').append(cell(cell)).append(" |"));
            md.append('\n');
        }
        md.append('\n');
    }

    static String inline(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    static String cell(String text) {
        return inline(text).replace("|", "\\|").replace("\r", "").replace("\n", "<br>");
    }
}
