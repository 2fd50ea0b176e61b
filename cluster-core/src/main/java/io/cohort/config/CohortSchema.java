package io.cohort.config;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Locale;
import java.util.Objects;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParserFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.ValidatorHandler;
import org.w3c.dom.ls.DOMImplementationLS;
import org.w3c.dom.ls.LSInput;
import org.w3c.dom.ls.LSResourceResolver;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXNotRecognizedException;
import org.xml.sax.SAXNotSupportedException;
import org.xml.sax.XMLReader;

/**
 * One of Cohort's published schemas, compiled once with the JDK's validator, and the validation of
 * a file against it. Parsing is XXE-safe: a DOCTYPE is an error, so no DTD, external entity or
 * entity expansion is ever processed, and {@code xsi:schemaLocation} hints are not followed.
 * Thread-safe.
 */
final class CohortSchema {

    private static final String TYPES = "cohort-types-1.xsd";
    private static final String LOCALE = "http://apache.org/xml/properties/locale";

    /** {@code cohort-config-1.xsd}: a node's configuration file. */
    static final CohortSchema CONFIG = new CohortSchema("cohort-config-1.xsd", "urn:cohort:config:1", "cohort");
    /** {@code cohort-web-1.xsd}: a web application's {@code WEB-INF/cohort-web.xml}. */
    static final CohortSchema WEB = new CohortSchema("cohort-web-1.xsd", "urn:cohort:web:1", "cohort-web");

    final String namespace;
    final String root;
    final SchemaCatalog catalog;
    private final Schema schema;

    private CohortSchema(String resource, String namespace, String root) {
        this.namespace = namespace;
        this.root = root;
        URL xsd = resource(resource);
        this.catalog = SchemaCatalog.read(xsd, resource(TYPES));
        try (InputStream in = xsd.openStream()) {
            SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setResourceResolver(new IncludeResolver());
            this.schema = factory.newSchema(new StreamSource(in, xsd.toExternalForm()));
        } catch (SAXException | IOException e) {
            throw new IllegalStateException("cannot compile " + resource, e);
        }
    }

    /**
     * Validates a file, stopping at its first error.
     *
     * @return where each element is, for the checks that follow binding
     * @throws ConfigException for malformed XML or the first schema violation
     */
    SourceMap validate(String systemId, byte[] xml) throws ConfigException {
        SourceText text = SourceText.decode(xml);
        ValidatorHandler validator = schema.newValidatorHandler();
        setQuietly(validator, LOCALE);
        try {
            validator.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            validator.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        } catch (SAXNotRecognizedException | SAXNotSupportedException e) {
            throw new IllegalStateException("the JDK validator must support JAXP 1.5 access restrictions", e);
        }
        ValidationPass pass = new ValidationPass(validator, text, new ValidationMessages(systemId, text, catalog, namespace, root));
        try {
            XMLReader reader = secureParser().newSAXParser().getXMLReader();
            setQuietly(reader, LOCALE);
            reader.setContentHandler(pass);
            reader.setErrorHandler(pass);
            InputSource input = new InputSource(new ByteArrayInputStream(xml));
            input.setSystemId(systemId);
            reader.parse(input);
        } catch (ValidationPass.Stop stop) {
            throw stop.error;
        } catch (SAXException | ParserConfigurationException e) {
            throw new ConfigException(systemId, 1, 1, "cannot parse: " + e.getMessage(), "well-formed XML", e);
        } catch (IOException e) {
            throw new UncheckedIOException("reading from memory", e);
        }
        return new SourceMap(systemId, text, catalog, pass.tagStarts());
    }

    private static SAXParserFactory secureParser() throws ParserConfigurationException, SAXException {
        SAXParserFactory factory = SAXParserFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setXIncludeAware(false);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
        factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        return factory;
    }

    /**
     * English messages, which {@link ValidationMessages} understands, whatever the default locale.
     * The English texts are the root bundle: asking for {@code Locale.ENGLISH} would make
     * ResourceBundle fall back to the default locale's bundle first.
     */
    private static void setQuietly(Object target, String property) {
        try {
            if (target instanceof XMLReader reader) {
                reader.setProperty(property, Locale.ROOT);
            } else if (target instanceof ValidatorHandler handler) {
                handler.setProperty(property, Locale.ROOT);
            }
        } catch (SAXNotRecognizedException | SAXNotSupportedException e) {
            // the parser's default locale then; unrecognised messages are still reported verbatim
        }
    }

    private static URL resource(String name) {
        return Objects.requireNonNull(CohortSchema.class.getResource(name), () -> "missing schema resource " + name);
    }

    /** Serves {@code <xs:include>} of the shared types from the classpath and refuses anything else. */
    private static final class IncludeResolver implements LSResourceResolver {
        @Override
        public LSInput resolveResource(String type, String namespaceUri, String publicId, String systemId, String baseUri) {
            if (!TYPES.equals(systemId)) {
                throw new IllegalStateException("Cohort schemas include only " + TYPES + ", not " + systemId);
            }
            try {
                DOMImplementationLS ls = (DOMImplementationLS) DocumentBuilderFactory.newInstance().newDocumentBuilder()
                        .getDOMImplementation();
                LSInput input = ls.createLSInput();
                URL types = resource(TYPES);
                input.setSystemId(types.toExternalForm());
                input.setByteStream(types.openStream());
                return input;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + TYPES, e);
            } catch (ParserConfigurationException e) {
                throw new IllegalStateException("no DOM implementation for schema includes", e);
            }
        }
    }
}
