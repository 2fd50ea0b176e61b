package io.cohort.jpetstore.model;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** A placed order as read back from the database. Never kept in the session. */
public record Order(long id, String username, LocalDateTime placedAt, PaymentDetails payment, Address billTo,
                    Address shipTo, BigDecimal total, List<OrderLine> lines) {
    public Order {
        lines = List.copyOf(lines);
    }

    /** When it was placed, as "2026-05-01 14:30". */
    public String placedAtText() {
        return placedAt.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"));
    }
}
