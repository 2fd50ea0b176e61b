package io.cohort.replication.group;

import io.cohort.session.SessionStore;
import io.cohort.session.contract.TestSession;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A user's visit to the shop on one member, request by request, calling the store the way the node
 * does: every setAttribute/removeAttribute reports {@code attributeChanged} under the session lock,
 * and every request ends with {@code requestCompleted}.
 */
public final class ShopVisit {

    /** A value of the application's own kind. */
    public record Account(String user, String name) implements Serializable {
    }

    private final TestSession session;
    private final SessionStore store;

    public ShopVisit(TestMember member) {
        this(member.store());
    }

    /** A visit at a node whose store is {@code store} (of any transport). */
    public ShopVisit(SessionStore store) {
        this.store = store;
        this.session = new TestSession(UUID.randomUUID().toString().replace("-", ""), TestMember.CODEC);
        synchronized (session) {
            store.created(session);
        }
    }

    public TestSession session() {
        return session;
    }

    public String id() {
        return session.id();
    }

    public long version() {
        synchronized (session) {
            return session.version();
        }
    }

    /** One request: sets (or with a null value removes) attributes, then ends. */
    public ShopVisit request(Map<String, Object> changes) {
        for (Map.Entry<String, Object> change : changes.entrySet()) {
            synchronized (session) {
                session.set(change.getKey(), change.getValue());
                store.attributeChanged(session, change.getKey());
            }
        }
        synchronized (session) {
            store.requestCompleted(session);
        }
        return this;
    }

    /** Log in, search, add two items to the cart, drop the search: three requests. */
    public ShopVisit browseAndFillCart() {
        request(Map.of("account", new Account("j2ee", "John"), "search", "fish"));
        request(Map.of("cart", new ArrayList<>(List.of("EST-1")), "item", "EST-1"));
        Map<String, Object> third = new java.util.HashMap<>();
        third.put("cart", new ArrayList<>(List.of("EST-1", "EST-2")));
        third.put("item", "EST-2");
        third.put("search", null);
        return request(third);
    }

    /** What {@link #browseAndFillCart()} leaves in the session. */
    public static Map<String, Object> expectedAfterBrowsing() {
        return Map.of("account", new Account("j2ee", "John"), "cart", List.of("EST-1", "EST-2"), "item", "EST-2");
    }
}
