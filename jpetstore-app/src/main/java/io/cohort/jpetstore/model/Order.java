package io.cohort.jpetstore.model;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A placed order as read back from the database. Never kept in the session. */
public record Order(long id, String username, LocalDateTime placedAt, PaymentDetails payment, Address billTo,
                    Address shipTo, BigDecimal total, List<OrderLine> lines) {
    public Order {
        lines = List.copyOf(lines);
    }

    /** The quantity ordered of each item, by item id (as {@link Cart#quantities()} gives a cart's). */
    public Map<String, Integer> quantities() {
        Map<String, Integer> quantities = new LinkedHashMap<>();
        lines.forEach(l -> quantities.merge(l.itemId(), l.quantity(), Integer::sum));
        return quantities;
    }

    /** When it was placed, as "2026-05-01 14:30". */
    public String placedAtText() {
        return placedAt.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"));
    }
}
