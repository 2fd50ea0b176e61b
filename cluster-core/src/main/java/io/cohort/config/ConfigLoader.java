package io.cohort.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Reads Cohort's XML configuration: a node's or balancer's file ({@code urn:cohort:config:1},
 * {@code cohort-config-1.xsd}; one file may describe a node, a balancer or both) and a web
 * application's {@code WEB-INF/cohort-web.xml} ({@code urn:cohort:web:1}, {@code cohort-web-1.xsd}).
 *
 * <p>Each file is checked in three steps, and the first problem found is thrown as a
 * {@link ConfigException} naming file, line, column and what was expected: the XML must be well
 * formed (no DOCTYPE: DTDs and external entities are never processed); it must be valid against the
 * schema; then the checks the schema cannot express (references between elements, unique names,
 * secrets that resolve, files that exist, and, for a file loaded from disk to run or check it on its machine, bind
 * addresses of this machine: {@link BindAddressCheck}). A returned configuration is complete: every default
 * applied, every path absolute, every secret read. Nothing is logged; secret values appear in no
 * message. Thread-safe; the methods are static because there is nothing to configure.
 */
public final class ConfigLoader {

    private ConfigLoader() {
    }

    /**
     * Loads a node's configuration file. Relative paths in it resolve against its directory, and
     * secrets named by {@code *-env} attributes come from this process's environment.
     *
     * @throws ConfigException also when the file is valid but describes no {@code <node>}
     */
    public static CohortConfig load(Path file) throws ConfigException {
        return load(file, Part.NODE).node().orElseThrow();
    }

    /**
     * Parses a node's configuration from a stream. Its bind addresses are not checked against this machine's (the
     * stream may hold a file meant for another); {@link #load} checks them.
     *
     * @param systemId names the source in error messages, usually the file name as the user gave it
     * @param baseDir  the directory relative paths resolve against
     * @param env      looks up environment variables for {@code *-env} attributes (tests pass a map's
     *                 {@code get}); returns null for an unset variable
     * @throws ConfigException also when the file is valid but describes no {@code <node>}
     */
    public static CohortConfig parse(String systemId, InputStream in, Path baseDir, Function<String, String> env)
            throws ConfigException {
        return parse(systemId, in, baseDir, env, Part.NODE).node().orElseThrow();
    }

    /**
     * Loads the {@code <balancer>} of a configuration file (which may describe a node as well).
     *
     * @throws ConfigException also when the file is valid but has no {@code <balancer>}
     */
    public static BalancerConfig loadBalancer(Path file) throws ConfigException {
        return load(file, Part.BALANCER).balancer().orElseThrow();
    }

    /** {@link #loadBalancer} from a stream; the parameters are those of {@link #parse}. */
    public static BalancerConfig parseBalancer(String systemId, InputStream in, Path baseDir, Function<String, String> env)
            throws ConfigException {
        return parse(systemId, in, baseDir, env, Part.BALANCER).balancer().orElseThrow();
    }

    /** Loads whatever a configuration file describes: a node, a balancer, or both. */
    public static ConfigFile loadFile(Path file) throws ConfigException {
        return load(file, Part.ANY);
    }

    /** {@link #loadFile} from a stream; the parameters are those of {@link #parse}. */
    public static ConfigFile parseFile(String systemId, InputStream in, Path baseDir, Function<String, String> env)
            throws ConfigException {
        return parse(systemId, in, baseDir, env, Part.ANY);
    }

    /** The part of a file a caller needs; a valid file without it is refused. */
    private enum Part { NODE, BALANCER, ANY }

    private static ConfigFile load(Path file, Part required) throws ConfigException {
        Path absolute = file.toAbsolutePath().normalize();
        return parse(file.toString(), read(file.toString(), absolute), absolute.getParent(), System::getenv, absolute, required,
                BindAddressCheck.ON_THIS_MACHINE);
    }

    private static ConfigFile parse(String systemId, InputStream in, Path baseDir, Function<String, String> env, Part required)
            throws ConfigException {
        Path absoluteBase = baseDir.toAbsolutePath().normalize();
        Path source;
        try {
            source = absoluteBase.resolve(systemId).normalize();
        } catch (InvalidPathException e) {
            source = absoluteBase;
        }
        return parse(systemId, read(systemId, in), absoluteBase, env, source, required, BindAddressCheck.NOT_CHECKED);
    }

    /**
     * Parses a web application's {@code WEB-INF/cohort-web.xml}. It holds no paths or secrets.
     *
     * @param systemId names the source in error messages, e.g. {@code shop.war!/WEB-INF/cohort-web.xml}
     */
    public static WebAppOverride parseWebOverride(String systemId, InputStream in) throws ConfigException {
        byte[] xml = read(systemId, in);
        SourceMap source = CohortSchema.WEB.validate(systemId, xml);
        return new WebOverrideBinder(source).bind(XmlBinding.bind(xml, RawWeb.class));
    }

    /** {@link #parseWebOverride} for a file; {@link WebAppOverride#NONE} if the file does not exist. */
    public static WebAppOverride loadWebOverride(Path file) throws ConfigException {
        return Files.exists(file) ? readWebOverride(file) : WebAppOverride.NONE;
    }

    /**
     * {@link #parseWebOverride} for a file that must exist, e.g. one a user names to check it.
     *
     * @throws ConfigException also when the file does not exist or cannot be read, at its 1:1
     */
    public static WebAppOverride readWebOverride(Path file) throws ConfigException {
        byte[] xml = read(file.toString(), file);
        SourceMap source = CohortSchema.WEB.validate(file.toString(), xml);
        return new WebOverrideBinder(source).bind(XmlBinding.bind(xml, RawWeb.class));
    }

    private static ConfigFile parse(String systemId, byte[] xml, Path baseDir, Function<String, String> env, Path source,
                                    Part required, BindAddressCheck bindAddresses) throws ConfigException {
        SourceMap map = CohortSchema.CONFIG.validate(systemId, xml);
        RawCohort raw = XmlBinding.bind(xml, RawCohort.class);
        SourceElement root = map.root("cohort");
        if (required == Part.NODE && raw.node == null) {
            throw root.error("the file describes a <balancer> but no <node>",
                    "<node name=\"...\"/> as the first element of <cohort> to start a node");
        }
        if (required == Part.BALANCER && raw.balancer == null) {
            throw root.error("the file describes no <balancer>",
                    "a <balancer> with at least one <balancer-member>, after <cluster>, to start a balancer");
        }
        try {
            return new ConfigBinder(map, baseDir, env, bindAddresses).bind(source, raw);
        } catch (IllegalArgumentException e) {
            // a limit of a configuration record that neither the schema nor the binders check: still a file error,
            // never a stack trace (the binders report what they know at the attribute itself)
            throw root.error("a value is out of range: " + e.getMessage(), "values within the ranges docs/configuration.md gives");
        }
    }

    private static byte[] read(String systemId, Path file) throws ConfigException {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw unreadable(systemId, e);
        }
    }

    private static byte[] read(String systemId, InputStream in) throws ConfigException {
        try {
            return in.readAllBytes();
        } catch (IOException e) {
            throw unreadable(systemId, e);
        }
    }

    private static ConfigException unreadable(String systemId, IOException e) {
        return new ConfigException(systemId, 1, 1, "cannot read the file (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")",
                "a readable XML file", e);
    }
}
