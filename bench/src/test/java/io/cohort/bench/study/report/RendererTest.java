package io.cohort.bench.study.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RendererTest {

    private final List<Block> blocks = List.of(new Block.Heading(2, "a <b> & c"),
            new Block.Table(List.of("x", "y"), List.of(List.of("1 | 2", "line\nbreak"))),
            new Block.Paragraph("it's \"quoted\""));

    @Test
    void markdownTableCellsEscapePipesAndLineBreaks() {
        String md = new MarkdownRenderer().render(blocks);

        assertThat(md).contains("## a &lt;b&gt; &amp; c").contains("| 1 \\| 2 | line<br>break |");
    }

    @Test
    void htmlEscapesEveryText() {
        String html = new HtmlRenderer().render("t<i>", blocks);

        assertThat(html).contains("<title>t&lt;i&gt;</title>", "<h2>a &lt;b&gt; &amp; c</h2>",
                "<td>1 | 2</td><td>line<br>break</td>", "<p>it&#39;s &quot;quoted&quot;</p>");
    }
}
