package io.cohort.replication.group;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fills the {@code ${name:default}} placeholders of a JGroups stack file: from Cohort's values
 * (taken from the configuration), else from a system property of that name, else from the default
 * written in the file. A placeholder without any value is left for JGroups to resolve (or reject).
 * Values are escaped for use inside an XML attribute.
 */
final class StackTemplate {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z0-9_.\\-]+)(?::([^}]*))?}");

    private StackTemplate() {
    }

    static String fill(String xml, Map<String, String> values) {
        Matcher m = PLACEHOLDER.matcher(xml);
        StringBuilder out = new StringBuilder(xml.length());
        while (m.find()) {
            String name = m.group(1);
            String value = values.get(name);
            if (value == null) {
                value = System.getProperty(name);
            }
            if (value == null) {
                value = m.group(2);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value == null ? m.group() : escape(value)));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String escape(String value) {
        return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&apos;");
    }
}
