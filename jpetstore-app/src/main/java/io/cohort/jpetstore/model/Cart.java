package io.cohort.jpetstore.model;

import java.io.Serial;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The shopping cart, kept in the session as "cart".
 *
 * <p>Immutable: every change returns a new cart, which the caller must store with {@code setAttribute}.
 * That is deliberate: a replication scope of "modified attributes" only sees changes made through
 * {@code setAttribute}, so an object that cannot change in place cannot be changed behind its back.
 */
public record Cart(List<CartLine> lines) implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    /** Most of one item a single order may take. */
    public static final int MAX_QUANTITY = 99;
    /** Most distinct items a cart holds; keeps the session small. */
    public static final int MAX_LINES = 50;

    private static final Cart EMPTY = new Cart(List.of());

    public Cart {
        lines = List.copyOf(lines);
        if (lines.size() > MAX_LINES) {
            throw new IllegalArgumentException("a cart holds at most " + MAX_LINES + " items");
        }
    }

    public static Cart empty() {
        return EMPTY;
    }

    public boolean isEmpty() {
        return lines.isEmpty();
    }

    public boolean isFull() {
        return lines.size() >= MAX_LINES;
    }

    /** Number of pieces, counting quantities. */
    public int itemCount() {
        return lines.stream().mapToInt(CartLine::quantity).sum();
    }

    public BigDecimal subtotal() {
        return lines.stream().map(CartLine::total).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    public Optional<CartLine> line(String itemId) {
        return lines.stream().filter(l -> l.itemId().equals(itemId)).findFirst();
    }

    /** One more of the item; a new line if the cart does not hold it yet. Quantity stops at {@link #MAX_QUANTITY}. */
    public Cart add(Item item) {
        Optional<CartLine> existing = line(item.id());
        if (existing.isPresent()) {
            return withQuantity(item.id(), Math.min(MAX_QUANTITY, existing.get().quantity() + 1));
        }
        List<CartLine> next = new ArrayList<>(lines);
        next.add(new CartLine(item.id(), item.productId(), item.displayName(), item.listPrice(), 1));
        return new Cart(next);
    }

    /** Sets the quantity of a line already in the cart; zero removes it. Unknown items are ignored. */
    public Cart withQuantity(String itemId, int quantity) {
        if (quantity == 0) {
            return remove(itemId);
        }
        List<CartLine> next = new ArrayList<>(lines.size());
        for (CartLine l : lines) {
            next.add(l.itemId().equals(itemId) ? l.withQuantity(quantity) : l);
        }
        return new Cart(next);
    }

    /** The cart with these items at these unit prices (by item id); items it does not hold are ignored. */
    public Cart withPrices(Map<String, BigDecimal> unitPrices) {
        List<CartLine> next = new ArrayList<>(lines.size());
        for (CartLine l : lines) {
            BigDecimal price = unitPrices.get(l.itemId());
            next.add(price == null ? l : l.withUnitPrice(price));
        }
        return new Cart(next);
    }

    /** The quantity of each item, by item id. */
    public Map<String, Integer> quantities() {
        Map<String, Integer> quantities = new LinkedHashMap<>();
        lines.forEach(l -> quantities.merge(l.itemId(), l.quantity(), Integer::sum));
        return quantities;
    }

    /** This cart less the {@code taken} quantities (by item id): a line taken whole is gone. */
    public Cart without(Map<String, Integer> taken) {
        List<CartLine> next = new ArrayList<>(lines.size());
        for (CartLine l : lines) {
            int left = l.quantity() - taken.getOrDefault(l.itemId(), 0);
            if (left > 0) {
                next.add(l.withQuantity(left));
            }
        }
        return new Cart(next);
    }

    public Cart remove(String itemId) {
        List<CartLine> next = new ArrayList<>(lines);
        next.removeIf(l -> l.itemId().equals(itemId));
        return new Cart(next);
    }
}
