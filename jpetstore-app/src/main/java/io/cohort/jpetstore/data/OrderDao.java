package io.cohort.jpetstore.data;

import io.cohort.jpetstore.model.Address;
import io.cohort.jpetstore.model.Cart;
import io.cohort.jpetstore.model.CartLine;
import io.cohort.jpetstore.model.CheckoutDraft;
import io.cohort.jpetstore.model.Order;
import io.cohort.jpetstore.model.OrderLine;
import io.cohort.jpetstore.model.OrderSummary;
import io.cohort.jpetstore.model.PaymentDetails;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/** Places orders and reads them back. */
public final class OrderDao {
    private static final String ADDRESS_COLUMNS = "first_name, last_name, address1, address2, city, state, zip, country";

    private final DataSource dataSource;
    private final SqlRunner sql;

    public OrderDao(DataSource dataSource) {
        this.dataSource = dataSource;
        this.sql = new SqlRunner(dataSource);
    }

    /** What {@link #place} did: placed the order now, or found the order its token had placed before. */
    public record Placement(long orderId, boolean placedNow) {
    }

    /**
     * Places an order in one transaction: takes each item from stock (refusing if too few are left), checks that
     * each item's list price is still the price the cart shows (the one the customer confirmed), and writes the
     * order and its lines at those prices. Items are taken in item-id order, so two
     * orders for the same items cannot deadlock.
     *
     * <p>At most once per {@linkplain CheckoutDraft#orderToken() order token}: the order row stores the draft's
     * token under a unique constraint, in the same transaction, so if an order with this token exists (a
     * resubmitted confirmation, say from a session that never learned the first submit placed it, or from another
     * node at the same time), nothing is written and that order is returned instead.
     *
     * @throws OutOfStockException if an item has too few left; nothing is written then
     * @throws PriceChangedException if an item's list price is no longer the cart's; nothing is written then
     * @throws DataAccessException also if the token placed an order of another customer
     */
    public Placement place(String username, CheckoutDraft draft, Cart cart)
            throws OutOfStockException, PriceChangedException {
        if (cart.isEmpty()) {
            throw new IllegalArgumentException("an order needs at least one item");
        }
        List<CartLine> lines = new ArrayList<>(cart.lines());
        lines.sort(Comparator.comparing(CartLine::itemId));
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                Optional<Placement> earlier = placedEarlier(c, draft.orderToken(), username);
                if (earlier.isPresent()) {
                    c.rollback();
                    return earlier.get();
                }
                List<BigDecimal> prices = takeFromStock(c, lines);
                BigDecimal total = BigDecimal.ZERO;
                for (int i = 0; i < lines.size(); i++) {
                    total = total.add(prices.get(i).multiply(BigDecimal.valueOf(lines.get(i).quantity())));
                }
                long orderId = insertOrder(c, username, draft, total);
                insertLines(c, orderId, lines, prices);
                c.commit();
                return new Placement(orderId, true);
            } catch (SQLException e) {
                c.rollback();
                // most likely the token's unique key: the same order, placed by a request that committed first
                Optional<Placement> earlier = placedEarlier(c, draft.orderToken(), username, e);
                c.rollback();
                return earlier.orElseThrow(() -> e);
            } catch (RuntimeException | OutOfStockException | PriceChangedException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new DataAccessException("placing an order for " + username + " failed", e);
        }
    }

    /** The id of the order that this customer placed with this token, if any. */
    public Optional<Long> placedWith(String orderToken, String username) {
        return sql.optional("SELECT order_id FROM orders WHERE order_token = ? AND username = ?",
                rs -> rs.getLong(1), orderToken, username);
    }

    public List<OrderSummary> historyOf(String username) {
        return sql.list("SELECT o.order_id, o.placed_at, o.total, COUNT(l.line_number) FROM orders o"
                        + " JOIN order_line l ON l.order_id = o.order_id WHERE o.username = ?"
                        + " GROUP BY o.order_id, o.placed_at, o.total ORDER BY o.order_id DESC",
                rs -> new OrderSummary(rs.getLong(1), rs.getTimestamp(2).toLocalDateTime(), rs.getBigDecimal(3),
                        rs.getInt(4)),
                username);
    }

    /** The order if it exists and belongs to {@code username}. */
    public Optional<Order> find(long orderId, String username) {
        List<OrderLine> lines = sql.list("SELECT l.line_number, l.item_id, i.attribute, p.name, l.quantity,"
                        + " l.unit_price FROM order_line l JOIN orders o ON o.order_id = l.order_id"
                        + " JOIN item i ON i.item_id = l.item_id JOIN product p ON p.product_id = i.product_id"
                        + " WHERE l.order_id = ? AND o.username = ? ORDER BY l.line_number",
                rs -> new OrderLine(rs.getInt(1), rs.getString(2), describe(rs.getString(3), rs.getString(4)),
                        rs.getInt(5), rs.getBigDecimal(6)),
                orderId, username);
        return sql.optional("SELECT order_id, username, placed_at, card_type, card_masked, card_expiry, total, "
                        + prefixed("bill_") + ", " + prefixed("ship_")
                        + " FROM orders WHERE order_id = ? AND username = ?",
                rs -> new Order(rs.getLong("order_id"), rs.getString("username"),
                        rs.getTimestamp("placed_at").toLocalDateTime(),
                        new PaymentDetails(rs.getString("card_type"), rs.getString("card_masked"),
                                rs.getString("card_expiry")),
                        address(rs, "bill_"), address(rs, "ship_"), rs.getBigDecimal("total"), lines),
                orderId, username);
    }

    private static Optional<Placement> placedEarlier(Connection c, String orderToken, String username)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT order_id, username FROM orders WHERE order_token = ?")) {
            SqlRunner.bind(ps, orderToken);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                if (!rs.getString(2).equals(username)) {
                    throw new DataAccessException("the order token of " + username + "'s order belongs to order "
                            + rs.getLong(1) + " of another customer");
                }
                return Optional.of(new Placement(rs.getLong(1), false));
            }
        }
    }

    /** As above after {@code failure}; a failure of this look-up is added to it. */
    private static Optional<Placement> placedEarlier(Connection c, String orderToken, String username,
                                                     SQLException failure) {
        try {
            return placedEarlier(c, orderToken, username);
        } catch (SQLException e) {
            failure.addSuppressed(e);
            return Optional.empty();
        }
    }

    /** Takes the lines' items from stock; returns their list prices, each the price the cart shows. */
    private static List<BigDecimal> takeFromStock(Connection c, List<CartLine> lines)
            throws SQLException, OutOfStockException, PriceChangedException {
        List<BigDecimal> prices = new ArrayList<>(lines.size());
        Map<String, BigDecimal> changed = new LinkedHashMap<>();
        try (PreparedStatement take = c.prepareStatement(
                     "UPDATE item SET stock = stock - ? WHERE item_id = ? AND stock >= ?");
             PreparedStatement read = c.prepareStatement("SELECT list_price, stock FROM item WHERE item_id = ?")) {
            for (CartLine line : lines) {
                SqlRunner.bind(take, line.quantity(), line.itemId(), line.quantity());
                boolean taken = take.executeUpdate() == 1;
                SqlRunner.bind(read, line.itemId());
                try (ResultSet rs = read.executeQuery()) {
                    if (!rs.next()) {
                        throw new OutOfStockException(line.itemId(), 0);
                    }
                    if (!taken) {
                        throw new OutOfStockException(line.itemId(), rs.getInt(2));
                    }
                    BigDecimal listPrice = rs.getBigDecimal(1);
                    if (listPrice.compareTo(line.unitPrice()) != 0) {
                        changed.put(line.itemId(), listPrice);
                    }
                    prices.add(listPrice);
                }
            }
        }
        if (!changed.isEmpty()) {
            throw new PriceChangedException(changed);
        }
        return prices;
    }

    private static long insertOrder(Connection c, String username, CheckoutDraft draft, BigDecimal total)
            throws SQLException {
        String insert = "INSERT INTO orders (username, placed_at, card_type, card_masked, card_expiry, total, "
                + prefixed("bill_") + ", " + prefixed("ship_")
                + ", order_token) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
        try (PreparedStatement ps = c.prepareStatement(insert, Statement.RETURN_GENERATED_KEYS)) {
            PaymentDetails pay = draft.payment();
            SqlRunner.bind(ps, username, Timestamp.valueOf(LocalDateTime.now()), pay.cardType(), pay.maskedNumber(),
                    pay.expiry(), total);
            bindAddress(ps, 7, draft.billTo());
            bindAddress(ps, 15, draft.shipTo());
            ps.setString(23, draft.orderToken());
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                if (!keys.next()) {
                    throw new SQLException("the database returned no order id");
                }
                return keys.getLong("order_id");
            }
        }
    }

    private static void insertLines(Connection c, long orderId, List<CartLine> lines, List<BigDecimal> prices)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO order_line (order_id, line_number, item_id, quantity, unit_price) VALUES (?, ?, ?, ?, ?)")) {
            for (int i = 0; i < lines.size(); i++) {
                SqlRunner.bind(ps, orderId, i + 1, lines.get(i).itemId(), lines.get(i).quantity(), prices.get(i));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    private static void bindAddress(PreparedStatement ps, int first, Address a) throws SQLException {
        String[] values = {a.firstName(), a.lastName(), a.line1(), a.line2(), a.city(), a.state(), a.zip(),
            a.country()};
        for (int i = 0; i < values.length; i++) {
            ps.setString(first + i, values[i]);
        }
    }

    private static Address address(ResultSet rs, String prefix) throws SQLException {
        return new Address(rs.getString(prefix + "first_name"), rs.getString(prefix + "last_name"),
                rs.getString(prefix + "address1"), rs.getString(prefix + "address2"), rs.getString(prefix + "city"),
                rs.getString(prefix + "state"), rs.getString(prefix + "zip"), rs.getString(prefix + "country"));
    }

    private static String prefixed(String prefix) {
        return prefix + ADDRESS_COLUMNS.replace(", ", ", " + prefix);
    }

    private static String describe(String attribute, String productName) {
        return attribute == null || attribute.isEmpty() ? productName : attribute + " " + productName;
    }
}
