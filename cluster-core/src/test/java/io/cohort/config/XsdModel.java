package io.cohort.config;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The elements, attributes, defaults and value types of a Cohort schema, read straight from the XSD
 * files with DOM, independently of the production code, for the tests that keep Java defaults and
 * the reference page in step with the schema.
 */
final class XsdModel {

    record Attribute(String name, String type, Optional<String> defaultValue, boolean required) {
    }

    /** Element name to its attributes, in schema order. */
    final Map<String, List<Attribute>> elements = new LinkedHashMap<>();
    /** Value type name to its documentation. */
    final Map<String, String> types = new LinkedHashMap<>();

    static XsdModel read(String schema) {
        XsdModel model = new XsdModel();
        Document xsd = parse(schema);
        Document common = parse("cohort-types-1.xsd");
        Map<String, Element> complexTypes = new LinkedHashMap<>();
        for (Element type : children(xsd, "complexType")) {
            complexTypes.put(type.getAttribute("name"), type);
        }
        for (Element element : children(xsd, "element")) {
            List<Attribute> attributes = new ArrayList<>();
            for (Element attribute : children(complexTypes.get(element.getAttribute("type")), "attribute")) {
                attributes.add(new Attribute(attribute.getAttribute("name"), attribute.getAttribute("type"),
                        attribute.hasAttribute("default") ? Optional.of(attribute.getAttribute("default")) : Optional.empty(),
                        "required".equals(attribute.getAttribute("use"))));
            }
            model.elements.put(element.getAttribute("name"), attributes);
        }
        for (Element type : children(common, "simpleType")) {
            model.types.put(type.getAttribute("name"), children(type, "documentation").get(0).getTextContent().trim());
        }
        return model;
    }

    private static Document parse(String resource) {
        try (InputStream in = ConfigLoader.class.getResourceAsStream(resource)) {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            return factory.newDocumentBuilder().parse(in);
        } catch (Exception e) {
            throw new IllegalStateException("cannot read " + resource, e);
        }
    }

    /** All descendants in the XML Schema namespace with this local name. */
    private static List<Element> children(Object node, String localName) {
        NodeList list = node instanceof Document d ? d.getElementsByTagNameNS(XMLConstants.W3C_XML_SCHEMA_NS_URI, localName)
                : ((Element) node).getElementsByTagNameNS(XMLConstants.W3C_XML_SCHEMA_NS_URI, localName);
        List<Element> result = new ArrayList<>();
        for (int i = 0; i < list.getLength(); i++) {
            result.add((Element) list.item(i));
        }
        return result;
    }
}
