package io.cohort.jpetstore.web.form;

import io.cohort.jpetstore.model.PaymentDetails;
import java.time.YearMonth;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Card type, number and expiry. The number must pass the Luhn check (4111 1111 1111 1111 does); only its last
 * four digits are kept.
 */
public final class PaymentForm {
    public static final List<String> CARD_TYPES = List.of("Visa", "MasterCard", "American Express");
    public static final List<String> FIELDS = List.of("cardType", "cardNumber", "expiry");
    private static final DateTimeFormatter EXPIRY = DateTimeFormatter.ofPattern("MM/uuuu");

    private PaymentForm() {
    }

    /** Checks the payment fields against the current month; see {@link Form#isValid()} before using the result. */
    public static PaymentDetails validate(Form form, YearMonth thisMonth) {
        if (!CARD_TYPES.contains(form.value("cardType"))) {
            form.reject("cardType", "Please pick a card type.");
        }
        String digits = form.value("cardNumber").replaceAll("[ -]", "");
        if (digits.isEmpty()) {
            form.reject("cardNumber", "Card number is required.");
        } else if (!digits.matches("[0-9]{12,19}") || !passesLuhn(digits)) {
            form.reject("cardNumber", "That card number is not valid; please check it.");
        }
        String expiry = form.value("expiry");
        try {
            YearMonth month = YearMonth.parse(expiry, EXPIRY);
            if (month.isBefore(thisMonth)) {
                form.reject("expiry", "That card has expired.");
            } else if (month.isAfter(thisMonth.plusYears(20))) {
                form.reject("expiry", "That expiry date is too far ahead.");
            }
        } catch (DateTimeParseException e) {
            form.reject("expiry", expiry.isEmpty() ? "Expiry date is required." : "Expiry date should be MM/YYYY, like 12/2030.");
        }
        String last4 = digits.length() >= 4 ? digits.substring(digits.length() - 4) : digits;
        return new PaymentDetails(form.value("cardType"), "**** " + last4, expiry);
    }

    /** The fields to show again; never the card number. */
    public static Map<String, String> values(PaymentDetails payment) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("cardType", payment.cardType());
        values.put("expiry", payment.expiry());
        return values;
    }

    static boolean passesLuhn(String digits) {
        int sum = 0;
        boolean doubled = false;
        for (int i = digits.length() - 1; i >= 0; i--) {
            int d = digits.charAt(i) - '0';
            if (doubled) {
                d = d * 2 > 9 ? d * 2 - 9 : d * 2;
            }
            sum += d;
            doubled = !doubled;
        }
        return sum % 10 == 0;
    }
}
