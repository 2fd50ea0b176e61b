package io.cohort.config;

import java.util.Map;

/**
 * Where each element of a validated configuration file starts, recorded during schema validation,
 * so that checks made after binding can still point at the offending element or attribute.
 * Elements are addressed by path with 1-based indexes among same-named siblings, e.g.
 * {@code /cohort[1]/datasource[2]}; start from {@link #root(String)}.
 */
final class SourceMap {

    private final String systemId;
    private final SourceText text;
    private final SchemaCatalog catalog;
    private final Map<String, Integer> tagStarts;

    SourceMap(String systemId, SourceText text, SchemaCatalog catalog, Map<String, Integer> tagStarts) {
        this.systemId = systemId;
        this.text = text;
        this.catalog = catalog;
        this.tagStarts = Map.copyOf(tagStarts);
    }

    /** The root element. */
    SourceElement root(String name) {
        return new SourceElement(this, "/" + name + "[1]", name);
    }

    SchemaCatalog catalog() {
        return catalog;
    }

    /** An error at the start of an element, or of its closest recorded ancestor. */
    ConfigException errorAt(String path, String problem, String expected) {
        return error(elementOffset(path), problem, expected);
    }

    /** An error at an attribute of an element, or at the element if the attribute is not written. */
    ConfigException errorAt(String path, String attribute, String problem, String expected) {
        int element = elementOffset(path);
        int offset = element < 0 ? -1 : text.attribute(element, attribute);
        return error(offset < 0 ? element : offset, problem, expected);
    }

    /** Whether the element is in the file with the attribute written. */
    boolean hasAttribute(String path, String attribute) {
        Integer element = tagStarts.get(path);
        return element != null && text.attribute(element, attribute) >= 0;
    }

    /** The line:column of an element, e.g. {@code 4:3}, for messages that refer to another element. */
    String describePosition(String path) {
        SourceText.Position p = text.position(Math.max(0, elementOffset(path)));
        return p.line() + ":" + p.column();
    }

    private int elementOffset(String path) {
        for (String p = path; !p.isEmpty(); p = p.substring(0, p.lastIndexOf('/'))) {
            Integer offset = tagStarts.get(p);
            if (offset != null) {
                return offset;
            }
        }
        return -1;
    }

    private ConfigException error(int offset, String problem, String expected) {
        SourceText.Position p = text.position(Math.max(0, offset));
        return new ConfigException(systemId, p.line(), p.column(), problem, expected);
    }
}
