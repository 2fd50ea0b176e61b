package io.cohort.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * One element of a validated configuration file: reads its attribute values into Java types and
 * creates errors that point at it or at one of its attributes. Values have passed the schema, so
 * conversion fails only at limits the schema cannot express (e.g. a duration too long for
 * {@link Duration}); such failures are reported like schema errors.
 */
final class SourceElement {

    private final SourceMap map;
    private final String path;
    private final String name;

    SourceElement(SourceMap map, String path, String name) {
        this.map = map;
        this.path = path;
        this.name = name;
    }

    SourceElement child(String child) {
        return child(child, 0);
    }

    /** The {@code index}-th (0-based) child of that name. */
    SourceElement child(String child, int index) {
        return new SourceElement(map, path + "/" + child + "[" + (index + 1) + "]", child);
    }

    /** {@code <name>}, for messages. */
    String tag() {
        return "<" + name + ">";
    }

    /** This element's line:column. */
    String position() {
        return map.describePosition(path);
    }

    /** Whether the attribute is written in the file (else its value is the schema's default, or absent). */
    boolean written(String attribute) {
        return map.hasAttribute(path, attribute);
    }

    ConfigException error(String problem, String expected) {
        return map.errorAt(path, problem, expected);
    }

    ConfigException attributeError(String attribute, String problem, String expected) {
        return map.errorAt(path, attribute, problem, expected);
    }

    int integer(String attribute, String value) throws ConfigException {
        return convert(attribute, value, v -> Integer.parseInt(v.trim()));
    }

    long longInteger(String attribute, String value) throws ConfigException {
        return convert(attribute, value, v -> Long.parseLong(v.trim()));
    }

    boolean flag(String attribute, String value) throws ConfigException {
        return convert(attribute, value, v -> Boolean.parseBoolean(v.trim()));
    }

    Duration duration(String attribute, String value) throws ConfigException {
        return convert(attribute, value, ConfigDuration::parse);
    }

    DataSize size(String attribute, String value) throws ConfigException {
        return convert(attribute, value, DataSize::parse);
    }

    /** A path, resolved against {@code baseDir} when relative. */
    Path path(String attribute, String value, Path baseDir) throws ConfigException {
        return convert(attribute, value, v -> baseDir.resolve(v).toAbsolutePath().normalize());
    }

    <T> T convert(String attribute, String value, Function<String, T> parser) throws ConfigException {
        try {
            return parser.apply(value);
        } catch (IllegalArgumentException e) { // includes NumberFormatException and InvalidPathException
            throw attributeError(attribute, "invalid value " + attribute + "=\"" + value + "\" on " + tag(),
                    map.catalog().describeAttribute(name, attribute));
        }
    }

    /** An optional attribute: empty when absent, converted when present. */
    <T> Optional<T> optional(String attribute, String value, Function<String, T> parser) throws ConfigException {
        return value == null ? Optional.empty() : Optional.of(convert(attribute, value, parser));
    }
}
