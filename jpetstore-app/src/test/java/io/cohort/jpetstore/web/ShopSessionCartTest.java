package io.cohort.jpetstore.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.jpetstore.model.Cart;
import io.cohort.jpetstore.model.CartLine;
import io.cohort.jpetstore.model.Item;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link ShopSession#changeCart}: a change is made on the cart as the session holds it when the change is stored, also
 * when another request of the session (a second tab, an order being placed) changed the cart after this one read it.
 */
class ShopSessionCartTest {
    private static final Item FISH = new Item("EST-1", "FI-SW-01", "Angelfish", "FISH", "Large", new BigDecimal("16.50"), 5);
    private static final Item DOG = new Item("EST-6", "K9-BD-01", "Bulldog", "DOGS", "Male Adult", new BigDecimal("18.50"), 5);

    private final Map<String, Object> attributes = new ConcurrentHashMap<>();
    private final HttpSession session = proxy(HttpSession.class, (name, args) -> switch (name) {
        case "getAttribute" -> attributes.get((String) args[0]);
        case "setAttribute" -> attributes.put((String) args[0], args[1]);
        case "removeAttribute" -> attributes.remove((String) args[0]);
        default -> throw new UnsupportedOperationException(name);
    });
    private final HttpServletRequest request = proxy(HttpServletRequest.class, (name, args) -> switch (name) {
        case "getSession" -> session;
        default -> throw new UnsupportedOperationException(name);
    });
    private final ShopSession shop = ShopSession.of(request);

    @Test
    void aCartAnotherRequestChangedBetweenTheReadAndTheWriteIsChangedAgainAsThatRequestLeftIt() {
        attributes.put(ShopSession.CART, Cart.empty().add(FISH));
        AtomicInteger reads = new AtomicInteger();

        Optional<Cart> stored = shop.changeCart(cart -> {
            if (reads.getAndIncrement() == 0) {
                attributes.put(ShopSession.CART, cart.add(DOG)); // the other tab's add lands after this request's read
            }
            return Optional.of(cart.add(FISH));
        });

        assertThat(reads).as("changes made").hasValue(2);
        assertThat(stored).hasValueSatisfying(cart -> assertThat(cart.quantities())
                .containsExactlyInAnyOrderEntriesOf(Map.of("EST-1", 2, "EST-6", 1)));
        assertThat(shop.cart()).isEqualTo(stored.orElseThrow());
    }

    @Test
    void aRefusedChangeStoresNothingAndIsMadeOnce() {
        Cart full = Cart.empty().add(FISH);
        attributes.put(ShopSession.CART, full);
        AtomicInteger reads = new AtomicInteger();

        Optional<Cart> stored = shop.changeCart(cart -> {
            reads.incrementAndGet();
            return Optional.empty();
        });

        assertThat(stored).isEmpty();
        assertThat(reads).hasValue(1);
        assertThat(shop.cart().lines()).extracting(CartLine::itemId).containsExactly("EST-1");
    }

    private interface Answer {
        Object answer(String method, Object[] args);
    }

    private static <T> T proxy(Class<T> type, Answer answer) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (self, method, args) -> answer.answer(method.getName(), args == null ? new Object[0] : args)));
    }
}
