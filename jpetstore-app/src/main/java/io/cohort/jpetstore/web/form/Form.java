package io.cohort.jpetstore.web.form;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The values a form was submitted with (trimmed) and the problems found in them, one message per field.
 * Pages read it as the request attribute "form": {@code ${form.values.email}}, {@code ${form.errors.email}}.
 * Not thread-safe; lives for one request.
 */
public final class Form {
    /** Longest value kept from any field; longer input is cut, and then fails its own length check. */
    static final int MAX_INPUT = 500;

    private final Map<String, String> values;
    private final Map<String, String> errors = new LinkedHashMap<>();

    private Form(Map<String, String> values) {
        this.values = values;
    }

    public static Form read(HttpServletRequest request, List<String> fields) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String field : fields) {
            String raw = request.getParameter(field);
            String value = raw == null ? "" : raw.strip();
            values.put(field, value.length() > MAX_INPUT ? value.substring(0, MAX_INPUT) : value);
        }
        return new Form(values);
    }

    /** A form pre-filled with known values, for display. */
    public static Form of(Map<String, String> values) {
        return new Form(new LinkedHashMap<>(values));
    }

    public static Form empty() {
        return new Form(new LinkedHashMap<>());
    }

    public String value(String field) {
        return values.getOrDefault(field, "");
    }

    public Map<String, String> getValues() {
        return Collections.unmodifiableMap(values);
    }

    public Map<String, String> getErrors() {
        return Collections.unmodifiableMap(errors);
    }

    public boolean isValid() {
        return errors.isEmpty();
    }

    /** Records a problem with a field; the first problem found per field is the one shown. */
    public void reject(String field, String message) {
        errors.putIfAbsent(field, message);
    }

    public Form required(String field, String label) {
        if (value(field).isEmpty()) {
            reject(field, label + " is required.");
        }
        return this;
    }

    public Form maxLength(String field, String label, int max) {
        if (value(field).length() > max) {
            reject(field, label + " can be at most " + max + " characters long.");
        }
        return this;
    }

    /** A non-empty value must match; an empty one is left to {@link #required}. */
    public Form matches(String field, Pattern pattern, String message) {
        String v = value(field);
        if (!v.isEmpty() && !pattern.matcher(v).matches()) {
            reject(field, message);
        }
        return this;
    }
}
