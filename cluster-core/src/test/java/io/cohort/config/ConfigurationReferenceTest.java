package io.cohort.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md is the one reference page of both schemas: every element has a section,
 * every attribute a row with its type and default, every value type its description, and nothing
 * documented there is missing from the schemas.
 */
class ConfigurationReferenceTest {

    private static final Pattern SECTION = Pattern.compile("^### `<([\\w-]+)>`", Pattern.MULTILINE);
    private static final Pattern XML_EXAMPLE = Pattern.compile("## Full example.*?```xml\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern ENV_ATTRIBUTE = Pattern.compile("-env=\"(\\w+)\"");

    private static String page;

    @BeforeAll
    static void readPage() throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (!Files.exists(dir.resolve("docs/configuration.md"))) {
            dir = dir.getParent();
            assertThat(dir).as("docs/configuration.md above the working directory").isNotNull();
        }
        page = Files.readString(dir.resolve("docs/configuration.md"), StandardCharsets.UTF_8);
    }

    @Test
    void everyElementAttributeAndDefaultOfTheNodeSchemaIsDocumented() {
        checkPart("## Reference: cohort.xml", XsdModel.read("cohort-config-1.xsd"), "—");
    }

    @Test
    void everyElementAttributeOfTheWebOverrideSchemaIsDocumented() {
        checkPart("## Reference: WEB-INF/cohort-web.xml", XsdModel.read("cohort-web-1.xsd"), "inherit");
    }

    @Test
    void everyValueTypeIsDescribedAsInTheSchema() {
        List<String> rows = part("## Value types").lines().filter(l -> l.startsWith("| `")).toList();
        Map<String, String> documented = new LinkedHashMap<>();
        rows.forEach(row -> documented.put(cells(row).get(0), cells(row).get(1)));

        Map<String, String> expected = new LinkedHashMap<>();
        XsdModel.read("cohort-config-1.xsd").types.forEach((type, doc) -> expected.put("`" + type + "`", doc));
        assertThat(documented).isEqualTo(expected);
    }

    @Test
    void fullExampleIsAValidConfiguration() throws Exception {
        Matcher example = XML_EXAMPLE.matcher(page);
        assertThat(example.find()).as("an xml block under ## Full example").isTrue();
        String xml = example.group(1);
        Map<String, String> env = new LinkedHashMap<>();
        ENV_ATTRIBUTE.matcher(xml).results().forEach(m -> env.put(m.group(1), "example-secret"));

        ConfigFile file = ConfigLoader.parseFile("configuration.md", new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)),
                Path.of("/etc/cohort"), env::get);

        CohortConfig config = file.node().orElseThrow();
        assertThat(config.cluster()).isPresent();
        assertThat(config.admin().apiEnabled()).isTrue();
        assertThat(file.balancer()).isPresent();
    }

    private static void checkPart(String heading, XsdModel schema, String noDefault) {
        Map<String, String> sections = sections(part(heading));
        assertThat(sections.keySet()).as("element sections under " + heading).containsExactlyInAnyOrderElementsOf(schema.elements.keySet());
        schema.elements.forEach((element, attributes) -> {
            Map<String, List<String>> rows = attributeRows(sections.get(element));
            assertThat(rows.keySet()).as("attribute rows of <" + element + ">")
                    .containsExactlyElementsOf(attributes.stream().map(XsdModel.Attribute::name).toList());
            for (XsdModel.Attribute attribute : attributes) {
                List<String> row = rows.get(attribute.name());
                String where = "<" + element + "> " + attribute.name();
                assertThat(row.get(1)).as(where + " type").isEqualTo("`" + attribute.type() + "`");
                String expectedDefault = attribute.required() ? "**required**" : attribute.defaultValue().map(d -> "`" + d + "`").orElse(noDefault);
                assertThat(row.get(2)).as(where + " default").isEqualTo(expectedDefault);
                assertThat(row.get(3)).as(where + " meaning").isNotBlank();
            }
        });
    }

    /** The text from a "## " heading to the next one. */
    private static String part(String heading) {
        int start = page.indexOf("\n" + heading);
        assertThat(start).as("heading " + heading).isNotNegative();
        int end = page.indexOf("\n## ", start + 1);
        return page.substring(start, end < 0 ? page.length() : end);
    }

    /** Element name to the text of its "### `<element>`" section. */
    private static Map<String, String> sections(String part) {
        List<Integer> starts = new ArrayList<>();
        List<String> names = new ArrayList<>();
        Matcher m = SECTION.matcher(part);
        while (m.find()) {
            starts.add(m.start());
            names.add(m.group(1));
        }
        Map<String, String> sections = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            int end = i + 1 < names.size() ? starts.get(i + 1) : part.length();
            String previous = sections.put(names.get(i), part.substring(starts.get(i), end));
            assertThat(previous).as("a second section for <" + names.get(i) + ">").isNull();
        }
        return sections;
    }

    /** Attribute name to the cells of its table row: name, type, default, meaning. */
    private static Map<String, List<String>> attributeRows(String section) {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        section.lines().filter(l -> l.startsWith("| `")).forEach(l -> {
            List<String> cells = cells(l);
            rows.put(cells.get(0).replace("`", ""), cells);
        });
        return rows;
    }

    private static List<String> cells(String row) {
        String inner = row.substring(1, row.lastIndexOf('|'));
        return Arrays.stream(inner.split("\\|", -1)).map(String::trim).toList();
    }
}
