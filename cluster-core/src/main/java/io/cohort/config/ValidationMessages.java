package io.cohort.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.xml.sax.SAXParseException;

/**
 * Turns the JDK parser's and schema validator's messages ({@code cvc-complex-type.2.4.a: Invalid
 * content was found ...}) into Cohort's: one line of plain English that says what is wrong and what
 * was expected, positioned at the tag or attribute at fault. Messages it does not recognise keep
 * the parser's wording and position, so nothing is ever lost.
 */
final class ValidationMessages {

    private static final Pattern CODE = Pattern.compile("^(cvc-[\\w.-]+) ?: ", Pattern.DOTALL);
    private static final Pattern BAD_VALUE = Pattern.compile(
            "The value '(.*)' of attribute '([^']*)' on element '([^']*)' is not valid with respect to its type, '([^']*)'\\.", Pattern.DOTALL);
    private static final Pattern ATTRIBUTE_NAMED = Pattern.compile("Attribute '([^']*)'");
    private static final Pattern EXPECTED_LIST = Pattern.compile("One of '\\{(.*)}' is expected", Pattern.DOTALL);
    private static final Pattern LIST_ITEM = Pattern.compile("(?:\"[^\"]*\":)?([\\w.-]+)");
    private static final Pattern UNCLOSED = Pattern.compile("The element type \"([^\"]+)\" must be terminated by the matching end-tag");
    private static final int MAX_QUOTED = 60;

    private final String systemId;
    private final SourceText text;
    private final SchemaCatalog catalog;
    private final String namespace;
    private final String root;

    ValidationMessages(String systemId, SourceText text, SchemaCatalog catalog, String namespace, String root) {
        this.systemId = systemId;
        this.text = text;
        this.catalog = catalog;
        this.namespace = namespace;
        this.root = root;
    }

    /** Whether this is the first half of a bad-value report, the validator naming the attribute next. */
    boolean isValueDetail(SAXParseException e) {
        String code = code(e);
        return code.startsWith("cvc-datatype-valid") || (code.endsWith("-valid") && !code.startsWith("cvc-complex"));
    }

    ConfigException translate(SAXParseException e, OpenElement current, OpenElement parent) {
        String message = String.valueOf(e.getMessage());
        String code = code(e);
        int reported = text.offset(e.getLineNumber(), e.getColumnNumber());
        if (code.isEmpty()) {
            return notWellFormed(message, reported, current);
        }
        String element = current == null ? root : current.localName;
        Matcher prefix = CODE.matcher(message);
        String body = prefix.find() ? message.substring(prefix.end()) : message;
        Matcher m;
        switch (code) {
            case "cvc-attribute.3":
                if ((m = BAD_VALUE.matcher(body)).matches()) {
                    String attribute = m.group(2);
                    String expected = catalog.attribute(element, attribute).map(a -> catalog.describeType(a.type()))
                            .orElse(catalog.describeType(m.group(4)));
                    return at(attribute(current, attribute, reported),
                            "invalid value " + attribute + "=\"" + quote(m.group(1)) + "\" on <" + element + ">", expected);
                }
                break;
            case "cvc-complex-type.3.2.2":
                if ((m = ATTRIBUTE_NAMED.matcher(body)).find()) {
                    List<String> known = catalog.attributes(element).stream().map(SchemaCatalog.Attribute::name).toList();
                    return at(attribute(current, m.group(1), reported), "unknown attribute " + m.group(1) + " on <" + element + ">",
                            known.isEmpty() ? "no attributes" : "one of " + String.join(", ", known));
                }
                break;
            case "cvc-complex-type.4":
                if ((m = ATTRIBUTE_NAMED.matcher(body)).find()) {
                    return at(tagStart(current, reported), "missing required attribute " + m.group(1) + " on <" + element + ">",
                            "attribute " + m.group(1) + ": " + catalog.describeAttribute(element, m.group(1)));
                }
                break;
            case "cvc-complex-type.2.4.a", "cvc-complex-type.2.4.d":
                return at(tagStart(current, reported), misplaced(current, parent), expectedAfter(body, parent));
            case "cvc-complex-type.2.4.b":
                List<String> possible = expectedElements(body);
                List<String> missing = possible.stream().filter(catalog.requiredChildren(element)::contains).toList();
                return at(text.tagStart(reported),
                        "missing " + (missing.size() == 1 ? "required element " + tag(missing.get(0)) : "a required element")
                                + " in <" + element + ">",
                        oneOf(possible));
            case "cvc-complex-type.2.1", "cvc-complex-type.2.3":
                return contentNotAllowed(current, code.equals("cvc-complex-type.2.1"), reported);
            case "cvc-elt.1.a":
                String problem = root.equals(element) && current != null && !namespace.equals(current.namespace)
                        ? "root element <" + element + "> is not in namespace " + namespace
                        : "unknown root element <" + element + ">";
                return at(tagStart(current, reported), problem, "<" + root + " xmlns=\"" + namespace + "\">");
            default:
                break;
        }
        return at(reported, stripPeriod(body), "a document valid against the Cohort schema " + namespace);
    }

    private ConfigException notWellFormed(String message, int reported, OpenElement current) {
        if (message.contains("DOCTYPE")) {
            return at(text.tagStart(reported), "a DOCTYPE declaration is not allowed (DTDs and external entities are disabled)",
                    "<" + root + " xmlns=\"" + namespace + "\"> without a DOCTYPE");
        }
        Matcher unclosed = UNCLOSED.matcher(message);
        if (unclosed.find() && current != null && unclosed.group(1).endsWith(current.localName)) {
            int found = text.tagStart(reported);
            SourceText.Position end = text.position(found);
            return at(current.tagStart, "malformed XML: element <" + unclosed.group(1) + "> is not closed",
                    "</" + unclosed.group(1) + "> before the end tag at " + end.line() + ":" + end.column());
        }
        String sentence = stripPeriod(message);
        return at(reported, "malformed XML: " + (sentence.isEmpty() ? "unreadable content"
                : sentence.substring(0, 1).toLowerCase(Locale.ROOT) + sentence.substring(1)), "well-formed XML");
    }

    private String misplaced(OpenElement current, OpenElement parent) {
        String name = current == null ? "?" : current.localName;
        String where = parent == null ? "" : " in <" + parent.localName + ">";
        if (current != null && !namespace.equals(current.namespace)) {
            return "element <" + name + ">" + where + " is not in namespace " + namespace;
        }
        return (catalog.declares(name) ? "element <" + name + "> is not allowed here" : "unknown element <" + name + ">") + where;
    }

    private String expectedAfter(String body, OpenElement parent) {
        List<String> expected = expectedElements(body);
        return expected.isEmpty() ? "no more elements in <" + (parent == null ? root : parent.localName) + ">" : oneOf(expected);
    }

    private ConfigException contentNotAllowed(OpenElement current, boolean emptyType, int reported) {
        String name = current == null ? root : current.localName;
        int offset = current == null || current.firstContent < 0 ? reported : current.firstContent;
        String found = current != null && current.firstChild != null
                ? (catalog.declares(current.firstChild) ? "element <" + current.firstChild + "> is not allowed"
                        : "unknown element <" + current.firstChild + ">") + " in <" + name + ">"
                : "unexpected text in <" + name + ">";
        return at(offset, found, emptyType ? "<" + name + " .../> with attributes only" : "only elements and comments in <" + name + ">");
    }

    private static List<String> expectedElements(String body) {
        Matcher list = EXPECTED_LIST.matcher(body);
        List<String> names = new ArrayList<>();
        if (list.find()) {
            Matcher item = LIST_ITEM.matcher(list.group(1));
            while (item.find()) {
                names.add(item.group(1));
            }
        }
        return names;
    }

    private static String oneOf(List<String> elements) {
        List<String> tags = elements.stream().map(ValidationMessages::tag).toList();
        return tags.size() == 1 ? tags.get(0) : "one of " + String.join(", ", tags);
    }

    private static String tag(String name) {
        return "<" + name + ">";
    }

    private int tagStart(OpenElement current, int reported) {
        return current == null ? text.tagStart(reported) : current.tagStart;
    }

    private int attribute(OpenElement current, String attribute, int reported) {
        int start = tagStart(current, reported);
        int offset = text.attribute(start, attribute);
        return offset < 0 ? start : offset;
    }

    private ConfigException at(int offset, String problem, String expected) {
        SourceText.Position p = text.position(offset);
        return new ConfigException(systemId, p.line(), p.column(), problem, expected);
    }

    private static String code(SAXParseException e) {
        Matcher m = CODE.matcher(String.valueOf(e.getMessage()));
        return m.find() ? m.group(1) : "";
    }

    private static String quote(String value) {
        String oneLine = value.replaceAll("\\s+", " ");
        return oneLine.length() <= MAX_QUOTED ? oneLine : oneLine.substring(0, MAX_QUOTED) + "…";
    }

    private static String stripPeriod(String message) {
        String trimmed = message.strip();
        return trimmed.endsWith(".") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
    }
}
