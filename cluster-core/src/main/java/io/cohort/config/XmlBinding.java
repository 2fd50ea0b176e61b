package io.cohort.config;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.dataformat.xml.XmlFactory;
import com.fasterxml.jackson.dataformat.xml.XmlMapper;
import java.io.IOException;
import javax.xml.stream.XMLInputFactory;

/**
 * Binds a document that already passed schema validation onto the raw classes ({@link RawCohort},
 * {@link RawWeb}) with Jackson. Unknown properties are ignored because the schema has already
 * refused unknown names; what remains are {@code xmlns} and {@code xsi:*} attributes. DTDs and
 * external entities are off here too, in case this is ever called without validation. Thread-safe.
 */
final class XmlBinding {

    private static final XmlMapper MAPPER = createMapper();

    private XmlBinding() {
    }

    private static XmlMapper createMapper() {
        XMLInputFactory input = XMLInputFactory.newFactory();
        input.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        input.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        XmlMapper mapper = new XmlMapper(XmlFactory.builder().xmlInputFactory(input).build());
        mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
        mapper.setVisibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE);
        mapper.setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY);
        return mapper;
    }

    /**
     * @throws IllegalStateException if a valid document does not bind, which means the raw classes
     *                               and the schema disagree: a bug, not a user error
     */
    static <T> T bind(byte[] validXml, Class<T> type) {
        try {
            return MAPPER.readValue(validXml, type);
        } catch (IOException e) {
            throw new IllegalStateException("schema and " + type.getSimpleName() + " disagree: " + e.getMessage(), e);
        }
    }
}
