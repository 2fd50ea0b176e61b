package io.cohort.jpetstore.web.form;

import io.cohort.jpetstore.model.Address;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The eight fields of an address. With a prefix ("bill", "ship") the fields are named "bill.firstName" and so
 * on, so one page can hold several addresses; without one, just "firstName".
 */
public final class AddressForm {
    public static final List<String> FIELDS =
            List.of("firstName", "lastName", "address1", "address2", "city", "state", "zip", "country");
    private static final Pattern ZIP = Pattern.compile("[A-Za-z0-9 -]{3,12}");

    private AddressForm() {
    }

    public static List<String> fields(String prefix) {
        return FIELDS.stream().map(f -> field(prefix, f)).toList();
    }

    /** Checks the address fields and returns the address; see {@link Form#isValid()} before using it. */
    public static Address validate(Form form, String prefix) {
        form.required(field(prefix, "firstName"), "First name").maxLength(field(prefix, "firstName"), "First name", 80)
                .required(field(prefix, "lastName"), "Last name").maxLength(field(prefix, "lastName"), "Last name", 80)
                .required(field(prefix, "address1"), "Address").maxLength(field(prefix, "address1"), "Address", 120)
                .maxLength(field(prefix, "address2"), "Address line 2", 120)
                .required(field(prefix, "city"), "City").maxLength(field(prefix, "city"), "City", 80)
                .required(field(prefix, "state"), "State").maxLength(field(prefix, "state"), "State", 80)
                .required(field(prefix, "zip"), "ZIP code")
                .matches(field(prefix, "zip"), ZIP, "ZIP code should be 3 to 12 letters, digits, spaces or dashes.")
                .required(field(prefix, "country"), "Country").maxLength(field(prefix, "country"), "Country", 80);
        return new Address(form.value(field(prefix, "firstName")), form.value(field(prefix, "lastName")),
                form.value(field(prefix, "address1")), form.value(field(prefix, "address2")),
                form.value(field(prefix, "city")), form.value(field(prefix, "state")), form.value(field(prefix, "zip")),
                form.value(field(prefix, "country")));
    }

    public static Map<String, String> values(Address a, String prefix) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put(field(prefix, "firstName"), a.firstName());
        values.put(field(prefix, "lastName"), a.lastName());
        values.put(field(prefix, "address1"), a.line1());
        values.put(field(prefix, "address2"), a.line2());
        values.put(field(prefix, "city"), a.city());
        values.put(field(prefix, "state"), a.state());
        values.put(field(prefix, "zip"), a.zip());
        values.put(field(prefix, "country"), a.country());
        return values;
    }

    static String field(String prefix, String name) {
        return prefix.isEmpty() ? name : prefix + "." + name;
    }
}
