package io.cohort.jpetstore.web;

import io.cohort.jpetstore.model.Account;
import io.cohort.jpetstore.model.Cart;
import io.cohort.jpetstore.model.CheckoutDraft;
import io.cohort.jpetstore.model.Item;
import io.cohort.jpetstore.model.SearchResults;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.io.Serializable;
import java.util.Optional;
import java.util.Map;
import java.util.function.Function;

/**
 * The only code that touches the HTTP session. Its discipline, for session replication:
 * <ul>
 *   <li>every value is an immutable, Serializable record (or a String) with a serialVersionUID, kept small;</li>
 *   <li>a change is always a new value stored with {@code setAttribute}, so a replication scope of
 *       "modified attributes" sees every change;</li>
 *   <li>reading never creates a session; only a write does.</li>
 * </ul>
 * The attribute names below are stable: replication tests and load drivers may rely on them.
 */
public final class ShopSession {
    /** The signed-on {@link Account}; absent when signed off. */
    public static final String ACCOUNT = "account";
    /** The last {@link SearchResults}, for paging without searching again. */
    public static final String SEARCH_RESULTS = "searchResults";
    /** The {@link Item} last viewed. */
    public static final String VIEWED_ITEM = "viewedItem";
    /** The {@link Cart}; absent until something is added, removed after an order is placed. */
    public static final String CART = "cart";
    /** The {@link CheckoutDraft} between the steps of the checkout wizard. */
    public static final String CHECKOUT = "checkout";
    /** The anti-forgery token (a String) that every form posts back; see {@link CsrfToken}. */
    public static final String CSRF_TOKEN = "csrfToken";

    private final HttpServletRequest request;

    private ShopSession(HttpServletRequest request) {
        this.request = request;
    }

    public static ShopSession of(HttpServletRequest request) {
        return new ShopSession(request);
    }

    public Optional<Account> account() {
        return read(ACCOUNT, Account.class);
    }

    public Cart cart() {
        return read(CART, Cart.class).orElse(Cart.empty());
    }

    public Optional<SearchResults> searchResults() {
        return read(SEARCH_RESULTS, SearchResults.class);
    }

    public Optional<Item> viewedItem() {
        return read(VIEWED_ITEM, Item.class);
    }

    public Optional<CheckoutDraft> checkout() {
        return read(CHECKOUT, CheckoutDraft.class);
    }

    Optional<String> csrfToken() {
        return read(CSRF_TOKEN, String.class);
    }

    /**
     * Signs on under a new session id and a new anti-forgery token (against session fixation: whoever planted the
     * session, and read its token, holds neither afterwards), keeping the cart and what else the session held, but
     * not another customer's checkout in progress (their addresses and card).
     */
    public void signOn(Account account) {
        boolean sameCustomer = account().map(Account::username).filter(account.username()::equals).isPresent();
        HttpSession session = request.getSession(true);
        request.changeSessionId();
        session.removeAttribute(CSRF_TOKEN); // the next page makes a new one
        if (!sameCustomer) {
            session.removeAttribute(CHECKOUT);
        }
        write(ACCOUNT, account);
    }

    public void accountUpdated(Account account) {
        write(ACCOUNT, account);
    }

    /**
     * Changes the cart: {@code change} maps the cart read to the next one, or to empty to leave the cart as it is (the
     * change is refused, e.g. a full cart). If another request of the session changed the cart between the read and
     * the write (an order being placed, another tab), the change is made again on the cart as that request left it.
     *
     * @return the cart stored, or empty if {@code change} refused
     */
    public Optional<Cart> changeCart(Function<Cart, Optional<Cart>> change) {
        while (true) {
            Cart read = cart();
            Optional<Cart> next = change.apply(read);
            if (next.isEmpty() || replaceCart(read, next.get())) {
                return next;
            }
        }
    }

    /**
     * Stores {@code next} as the cart if the cart is still {@code expected} (what the caller read and changed);
     * false, storing nothing, if another request of the session changed it since. Atomic among this node's requests
     * of the session (sticky sessions send them all here), like {@link #claimCheckout} and {@link #orderPlaced}.
     */
    private boolean replaceCart(Cart expected, Cart next) {
        HttpSession session = request.getSession(true);
        synchronized (session) {
            if (!cart().equals(expected)) {
                return false;
            }
            session.setAttribute(CART, next);
            return true;
        }
    }

    public void saveSearchResults(SearchResults results) {
        write(SEARCH_RESULTS, results);
    }

    public void viewed(Item item) {
        write(VIEWED_ITEM, item);
    }

    public void saveCheckout(CheckoutDraft draft) {
        write(CHECKOUT, draft);
    }

    /**
     * Takes the checkout's draft out of the session if it is still {@code draft}, so of two requests placing the same
     * order (a double click, a second tab) only one goes on; false for the other. Atomic among this node's requests
     * of the session (sticky sessions send them all here).
     */
    public boolean claimCheckout(CheckoutDraft draft) {
        HttpSession session = request.getSession(false);
        if (session == null) {
            return false;
        }
        synchronized (session) {
            if (!draft.equals(session.getAttribute(CHECKOUT))) {
                return false;
            }
            session.removeAttribute(CHECKOUT);
            return true;
        }
    }

    /**
     * The checkout's order is in the database, holding {@code ordered} (quantities by item id): the wizard's draft is
     * done with, and so are the ordered items in the cart. What another request added to the cart while the order was
     * being placed, or what the order does not hold, stays in it.
     */
    public void orderPlaced(Map<String, Integer> ordered) {
        HttpSession session = request.getSession(false);
        if (session == null) {
            return;
        }
        synchronized (session) {
            session.removeAttribute(CHECKOUT);
            takeOutOfCart(session, ordered);
        }
    }

    private void takeOutOfCart(HttpSession session, Map<String, Integer> ordered) {
        Cart left = cart().without(ordered);
        if (left.isEmpty()) {
            session.removeAttribute(CART);
        } else {
            session.setAttribute(CART, left);
        }
    }

    /**
     * An earlier request placed the order of the checkout with this token (of {@code ordered}: quantities by item id),
     * and this session did not learn of it: that checkout's draft is done with, and so are the ordered items in the
     * cart; what else it holds stays.
     */
    public void orderPlacedEarlier(String orderToken, Map<String, Integer> ordered) {
        HttpSession session = request.getSession(false);
        if (session == null) {
            return;
        }
        synchronized (session) {
            if (session.getAttribute(CHECKOUT) instanceof CheckoutDraft draft && draft.orderToken().equals(orderToken)) {
                session.removeAttribute(CHECKOUT);
                takeOutOfCart(session, ordered);
            }
        }
    }

    /** Signs off by invalidating the whole session. */
    public void signOff() {
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate();
        }
    }

    void saveCsrfToken(String token) {
        write(CSRF_TOKEN, token);
    }

    private void write(String name, Serializable value) {
        request.getSession(true).setAttribute(name, value);
    }

    private <T> Optional<T> read(String name, Class<T> type) {
        HttpSession session = request.getSession(false);
        if (session == null) {
            return Optional.empty();
        }
        Object value = session.getAttribute(name);
        return type.isInstance(value) ? Optional.of(type.cast(value)) : Optional.empty();
    }
}
