package io.cohort.node.deploy;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The name of a deployed application, derived from its WAR file name as servlet containers do:
 * {@code shop.war} is served at {@code /shop}, {@code ROOT.war} at {@code /}.
 */
public record ApplicationName(String value) {

    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,99}");

    public ApplicationName {
        if (!VALID.matcher(value).matches() || value.endsWith(".war")) {
            throw new IllegalArgumentException("invalid application name '" + value
                    + "': use letters, digits, '.', '_' and '-' (at most 100), without the .war suffix");
        }
    }

    /** The application a WAR file deploys, e.g. {@code webapps/shop.war} is {@code shop}. */
    public static ApplicationName ofWar(Path war) {
        String file = war.getFileName().toString();
        if (!file.endsWith(".war")) {
            throw new IllegalArgumentException("not a WAR file: " + war);
        }
        return new ApplicationName(file.substring(0, file.length() - ".war".length()));
    }

    public String contextPath() {
        return "ROOT".equals(value) ? "/" : "/" + value;
    }

    public String warFileName() {
        return value + ".war";
    }

    @Override
    public String toString() {
        return value;
    }
}
