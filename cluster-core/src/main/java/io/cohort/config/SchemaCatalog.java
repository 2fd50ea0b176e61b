package io.cohort.config;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * What error messages need to know about a Cohort schema: each element's attributes with their
 * types and defaults, each element's children, and the documentation of each value type (the
 * "expected ..." text). Read from the XSD files themselves, so messages follow the schema.
 * Assumes the style of Cohort's schemas: every element has a named complex type, attributes are
 * declared inline in those types, element names are unique within a schema.
 */
final class SchemaCatalog {

    record Attribute(String name, String type, Optional<String> defaultValue, boolean required) {
    }

    private final Map<String, String> elementTypes = new HashMap<>();
    private final Map<String, List<Attribute>> attributesByType = new HashMap<>();
    private final Map<String, List<String>> requiredChildrenByType = new HashMap<>();
    private final Map<String, String> typeDocs = new HashMap<>();

    /** Reads the given schema documents (a schema and the files it includes). */
    static SchemaCatalog read(URL... xsds) {
        SchemaCatalog catalog = new SchemaCatalog();
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        for (URL xsd : xsds) {
            try (InputStream in = xsd.openStream()) {
                catalog.scan(factory.createXMLStreamReader(in));
            } catch (IOException | XMLStreamException e) {
                throw new IllegalStateException("cannot read schema " + xsd, e);
            }
        }
        return catalog;
    }

    private void scan(XMLStreamReader xsd) throws XMLStreamException {
        String complexType = null;
        String simpleType = null;
        Deque<Boolean> optionalGroups = new ArrayDeque<>(); // sequence or choice: may its content be absent?
        while (xsd.hasNext()) {
            int event = xsd.next();
            if (event == XMLStreamReader.END_ELEMENT) {
                switch (xsd.getLocalName()) {
                    case "complexType" -> complexType = null;
                    case "sequence", "choice" -> optionalGroups.pop();
                    default -> {
                    }
                }
            }
            if (event != XMLStreamReader.START_ELEMENT || !XMLConstants.W3C_XML_SCHEMA_NS_URI.equals(xsd.getNamespaceURI())) {
                continue;
            }
            String name = xsd.getAttributeValue(null, "name");
            switch (xsd.getLocalName()) {
                case "complexType" -> complexType = name;
                case "simpleType" -> simpleType = name;
                case "sequence", "choice" -> optionalGroups.push(xsd.getLocalName().equals("choice")
                        || "0".equals(xsd.getAttributeValue(null, "minOccurs"))
                        || (!optionalGroups.isEmpty() && optionalGroups.peek()));
                case "element" -> {
                    elementTypes.put(name, xsd.getAttributeValue(null, "type"));
                    if (complexType != null && !optionalGroups.isEmpty() && !optionalGroups.peek()
                            && !"0".equals(xsd.getAttributeValue(null, "minOccurs"))) {
                        requiredChildrenByType.computeIfAbsent(complexType, t -> new ArrayList<>()).add(name);
                    }
                }
                case "attribute" -> attributesByType.computeIfAbsent(complexType, t -> new ArrayList<>()).add(new Attribute(
                        name, localPart(xsd.getAttributeValue(null, "type")),
                        Optional.ofNullable(xsd.getAttributeValue(null, "default")),
                        "required".equals(xsd.getAttributeValue(null, "use"))));
                case "documentation" -> {
                    if (simpleType != null) {
                        typeDocs.put(simpleType, xsd.getElementText().trim());
                        simpleType = null;
                    }
                }
                default -> {
                }
            }
        }
    }

    /** Whether the schema declares an element of this name anywhere. */
    boolean declares(String element) {
        return elementTypes.containsKey(element);
    }

    /** The attributes of an element, in declaration order; empty for unknown elements. */
    List<Attribute> attributes(String element) {
        return attributesByType.getOrDefault(elementTypes.get(element), List.of());
    }

    Optional<Attribute> attribute(String element, String attribute) {
        return attributes(element).stream().filter(a -> a.name().equals(attribute)).findFirst();
    }

    /**
     * The child elements an element must have, each on its own (not those of a choice, where any
     * alternative will do).
     */
    List<String> requiredChildren(String element) {
        return requiredChildrenByType.getOrDefault(elementTypes.get(element), List.of());
    }

    /** What a value of the type looks like, completing "expected ...". */
    String describeType(String type) {
        return typeDocs.getOrDefault(localPart(type), "a valid " + localPart(type) + " value");
    }

    /** What a value of this attribute looks like, completing "expected ...". */
    String describeAttribute(String element, String attribute) {
        return attribute(element, attribute).map(a -> describeType(a.type())).orElse("a valid value");
    }

    private static String localPart(String qName) {
        return qName == null ? "" : qName.substring(qName.indexOf(':') + 1);
    }
}
