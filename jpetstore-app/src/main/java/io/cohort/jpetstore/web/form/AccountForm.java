package io.cohort.jpetstore.web.form;

import io.cohort.jpetstore.model.Account;
import io.cohort.jpetstore.model.Address;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** The new-account and edit-account form: user name (new accounts only), password, contact and address. */
public final class AccountForm {
    public static final int MIN_PASSWORD = 6;
    private static final Pattern USERNAME = Pattern.compile("[A-Za-z0-9_.-]{3,40}");
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s]+");
    private static final Pattern PHONE = Pattern.compile("[0-9 +()./-]{5,40}");

    private AccountForm() {
    }

    public static List<String> fields() {
        List<String> fields = new ArrayList<>(List.of("username", "password", "repeatedPassword", "email", "phone",
                "favouriteCategory"));
        fields.addAll(AddressForm.fields(""));
        return fields;
    }

    /**
     * Checks the form and returns the account it describes; see {@link Form#isValid()} before using it.
     *
     * @param username the signed-on user's name when editing, or null for a new account (read from the form)
     * @param categoryIds the categories a favourite may name
     */
    public static Account validate(Form form, String username, Set<String> categoryIds) {
        boolean isNew = username == null;
        if (isNew) {
            form.required("username", "User name").matches("username", USERNAME,
                    "User name should be 3 to 40 letters, digits, dots, dashes or underscores.");
            form.required("password", "Password");
        }
        String password = form.value("password");
        if (!password.isEmpty() && (password.length() < MIN_PASSWORD || password.length() > 100)) {
            form.reject("password", "Password should be " + MIN_PASSWORD + " to 100 characters long.");
        }
        if (!password.equals(form.value("repeatedPassword"))) {
            form.reject("repeatedPassword", "The two passwords are not the same.");
        }
        form.required("email", "E-mail").maxLength("email", "E-mail", 120)
                .matches("email", EMAIL, "E-mail should look like name@example.com.")
                .required("phone", "Phone").matches("phone", PHONE, "Phone should be 5 to 40 digits, spaces or + ( ) . / -.");
        String favourite = form.value("favouriteCategory");
        if (!favourite.isEmpty() && !categoryIds.contains(favourite)) {
            form.reject("favouriteCategory", "Please pick one of the listed categories.");
        }
        Address address = AddressForm.validate(form, "");
        return new Account(isNew ? form.value("username") : username, form.value("email"), form.value("phone"),
                address, favourite);
    }

    public static Map<String, String> values(Account account) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("username", account.username());
        values.put("email", account.email());
        values.put("phone", account.phone());
        values.put("favouriteCategory", account.favouriteCategoryId());
        values.putAll(AddressForm.values(account.address(), ""));
        return values;
    }
}
