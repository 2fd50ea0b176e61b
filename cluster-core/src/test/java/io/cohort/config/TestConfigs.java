package io.cohort.config;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/** Reads the sample files of src/test/resources/config, or XML text, the way tests need. */
final class TestConfigs {

    static final Path BASE = Path.of("/etc/cohort");

    private TestConfigs() {
    }

    static InputStream resource(String name) {
        return Objects.requireNonNull(TestConfigs.class.getResourceAsStream("/config/" + name), name);
    }

    static String resourceText(String name) {
        try (InputStream in = resource(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static CohortConfig parse(String resource, Path baseDir, Map<String, String> env) throws ConfigException {
        return ConfigLoader.parse(resource, resource(resource), baseDir, env::get);
    }

    static CohortConfig parseText(String xml, Map<String, String> env) throws ConfigException {
        return ConfigLoader.parse("cohort.xml", new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), BASE, env::get);
    }

    static BalancerConfig parseBalancerText(String xml) throws ConfigException {
        return ConfigLoader.parseBalancer("cohort.xml", new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), BASE,
                Map.<String, String>of()::get);
    }

    static ConfigFile parseFileText(String xml) throws ConfigException {
        return ConfigLoader.parseFile("cohort.xml", new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), BASE,
                Map.<String, String>of()::get);
    }

    /** The error of XML text that must be refused as a balancer's file. */
    static ConfigException balancerErrorOfText(String xml) {
        return assertThatExceptionOfType(ConfigException.class).isThrownBy(() -> parseBalancerText(xml)).actual();
    }

    /** The error of a sample file that must be refused. */
    static ConfigException errorOf(String resource) {
        return assertThatExceptionOfType(ConfigException.class)
                .isThrownBy(() -> ConfigLoader.parse(resource, resource(resource), BASE, Map.<String, String>of()::get))
                .actual();
    }

    /** The error of XML text that must be refused; the file is called cohort.xml in messages. */
    static ConfigException errorOfText(String xml, Map<String, String> env) {
        return assertThatExceptionOfType(ConfigException.class).isThrownBy(() -> parseText(xml, env)).actual();
    }

    static ConfigException errorOfText(String xml) {
        return errorOfText(xml, Map.of());
    }
}
