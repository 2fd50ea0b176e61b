package io.cohort.jpetstore.web.form;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.jpetstore.model.PaymentDetails;
import java.time.YearMonth;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PaymentFormTest {
    private static final YearMonth NOW = YearMonth.of(2026, 5);

    @Test
    void aValidCardKeepsOnlyItsLastFourDigits() {
        Form form = Form.of(Map.of("cardType", "Visa", "cardNumber", "4111-1111 1111 1111", "expiry", "05/2026"));
        PaymentDetails payment = PaymentForm.validate(form, NOW);
        assertThat(form.getErrors()).isEmpty();
        assertThat(payment.maskedNumber()).isEqualTo("**** 1111");
    }

    @Test
    void eachBadFieldGetsItsOwnMessage() {
        Form form = Form.of(Map.of("cardType", "Bitcoin", "cardNumber", "4111 1111 1111 1112", "expiry", "04/2026"));
        PaymentForm.validate(form, NOW);
        assertThat(form.getErrors()).containsOnlyKeys("cardType", "cardNumber", "expiry")
                .containsEntry("expiry", "That card has expired.");
        Form malformed = Form.of(Map.of("cardType", "Visa", "cardNumber", "12ab", "expiry", "2026-12"));
        PaymentForm.validate(malformed, NOW);
        assertThat(malformed.getErrors()).containsEntry("expiry", "Expiry date should be MM/YYYY, like 12/2030.")
                .containsKey("cardNumber");
    }

    @Test
    void luhnCheckAcceptsKnownTestNumbers() {
        assertThat(PaymentForm.passesLuhn("4111111111111111")).isTrue();
        assertThat(PaymentForm.passesLuhn("5555555555554444")).isTrue();
        assertThat(PaymentForm.passesLuhn("378282246310005")).isTrue();
        assertThat(PaymentForm.passesLuhn("4111111111111121")).isFalse();
    }
}
