package io.cohort.jpetstore.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class CartTest {
    private static final Item FISH = new Item("EST-1", "FI-SW-01", "Angelfish", "FISH", "Large", new BigDecimal("16.50"), 5);
    private static final Item DOG = new Item("EST-6", "K9-BD-01", "Bulldog", "DOGS", "Male Adult", new BigDecimal("18.50"), 5);

    @Test
    void addingTheSameItemAgainRaisesItsQuantity() {
        Cart cart = Cart.empty().add(FISH).add(FISH).add(DOG);
        assertThat(cart.lines()).extracting(CartLine::itemId, CartLine::quantity)
                .containsExactly(tuple("EST-1", 2), tuple("EST-6", 1));
        assertThat(cart.itemCount()).isEqualTo(3);
        assertThat(cart.subtotal()).isEqualByComparingTo("51.50");
        assertThat(cart.line("EST-6").orElseThrow().description()).isEqualTo("Male Adult Bulldog");
    }

    @Test
    void changesReturnANewCartAndLeaveTheOldOneAlone() {
        Cart before = Cart.empty().add(FISH);
        Cart after = before.withQuantity("EST-1", 4);
        assertThat(before.line("EST-1").orElseThrow().quantity()).isEqualTo(1);
        assertThat(after.subtotal()).isEqualByComparingTo("66.00");
        assertThatThrownBy(() -> after.lines().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void quantityZeroOrRemoveTakesTheLineOut() {
        Cart cart = Cart.empty().add(FISH).add(DOG);
        assertThat(cart.withQuantity("EST-1", 0).lines()).extracting(CartLine::itemId).containsExactly("EST-6");
        assertThat(cart.remove("EST-6").remove("EST-1").isEmpty()).isTrue();
        assertThat(cart.remove("EST-404")).isEqualTo(cart);
    }

    @Test
    void quantitiesStayWithinOneToNinetyNine() {
        Cart cart = Cart.empty().add(FISH).withQuantity("EST-1", Cart.MAX_QUANTITY).add(FISH);
        assertThat(cart.line("EST-1").orElseThrow().quantity()).isEqualTo(Cart.MAX_QUANTITY);
        assertThatThrownBy(() -> Cart.empty().add(FISH).withQuantity("EST-1", 100))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
