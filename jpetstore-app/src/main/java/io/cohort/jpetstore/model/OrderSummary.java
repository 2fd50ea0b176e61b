package io.cohort.jpetstore.model;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** A row of the order history. */
public record OrderSummary(long id, LocalDateTime placedAt, BigDecimal total, int lineCount) {
    /** When it was placed, as "2026-05-01 14:30". */
    public String placedAtText() {
        return placedAt.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"));
    }
}
