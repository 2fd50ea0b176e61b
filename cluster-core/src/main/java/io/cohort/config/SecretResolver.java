package io.cohort.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

/**
 * Resolves the {@code *-env} / {@code *-file} attribute pairs that name a secret: reads the
 * environment variable or the file (relative to the configuration file's directory, trailing line
 * breaks removed). Errors name the variable or the file and never the value.
 */
final class SecretResolver {

    private static final int MAX_FILE_BYTES = 64 * 1024;

    private final Function<String, String> env;
    private final Path baseDir;

    SecretResolver(Function<String, String> env, Path baseDir) {
        this.env = env;
        this.baseDir = baseDir;
    }

    /** A secret that may be absent: neither attribute given. Both given is an error. */
    Optional<Secret> optional(SourceElement at, String envAttribute, String envName, String fileAttribute, String fileName)
            throws ConfigException {
        if (envName != null && fileName != null) {
            throw at.attributeError(fileAttribute, "both " + envAttribute + " and " + fileAttribute + " on " + at.tag(),
                    "only one of them");
        }
        if (envName != null) {
            return Optional.of(fromEnvironment(at, envAttribute, envName));
        }
        if (fileName != null) {
            return Optional.of(fromFile(at, fileAttribute, at.path(fileAttribute, fileName, baseDir)));
        }
        return Optional.empty();
    }

    /** A secret that must be given by exactly one of the two attributes. */
    Secret required(SourceElement at, String envAttribute, String envName, String fileAttribute, String fileName)
            throws ConfigException {
        return optional(at, envAttribute, envName, fileAttribute, fileName).orElseThrow(() -> at.error(
                "missing attribute " + envAttribute + " or " + fileAttribute + " on " + at.tag(),
                envAttribute + "=\"VARIABLE\" (an environment variable) or " + fileAttribute + "=\"path\" (a file) holding the secret"));
    }

    private Secret fromEnvironment(SourceElement at, String attribute, String variable) throws ConfigException {
        String raw = env.apply(variable);
        String value = raw == null ? null : Secret.withoutTrailingLineEnds(raw);
        if (value == null || value.isBlank()) {
            throw at.attributeError(attribute, "environment variable " + variable + " (" + attribute + " on " + at.tag() + ") is "
                    + (value == null ? "not set" : "empty"), "the variable to hold the secret");
        }
        checkEnds(at, attribute, value, "environment variable " + variable);
        return new Secret(value, "environment variable " + variable);
    }

    private Secret fromFile(SourceElement at, String attribute, Path file) throws ConfigException {
        String value;
        try (InputStream in = Files.newInputStream(file)) {
            // read to the bound, not to the size the file system reports: a device, a pipe or a /proc file reports 0
            byte[] bytes = in.readNBytes(MAX_FILE_BYTES + 1);
            if (bytes.length > MAX_FILE_BYTES) {
                throw at.attributeError(attribute, "secret file " + file + " (" + attribute + " on " + at.tag() + ") is larger than 64KiB",
                        "a file holding only the secret");
            }
            value = Secret.withoutTrailingLineEnds(new String(bytes, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw at.attributeError(attribute, "cannot read secret file " + file + " (" + attribute + " on " + at.tag() + "): "
                    + e.getClass().getSimpleName(), "a readable file holding the secret");
        }
        if (value.isBlank()) {
            throw at.attributeError(attribute, "secret file " + file + " (" + attribute + " on " + at.tag() + ") is empty",
                    "a file holding the secret");
        }
        checkEnds(at, attribute, value, "secret file " + file);
        return new Secret(value, "file " + file);
    }

    /** Refuses a secret with spaces at either end ({@link Secret#hasSurroundingSpace}). */
    private static void checkEnds(SourceElement at, String attribute, String value, String source) throws ConfigException {
        if (Secret.hasSurroundingSpace(value)) {
            throw at.attributeError(attribute, source + " (" + attribute + " on " + at.tag() + ") holds a secret with spaces at its "
                    + "start or end", "the secret alone, without surrounding spaces");
        }
    }
}
