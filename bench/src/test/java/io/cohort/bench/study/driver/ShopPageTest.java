package io.cohort.bench.study.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the driver reads from the shop's markup (as jpetstore-app's JSPs write it). */
class ShopPageTest {

    private static final String SIGNED_ON_HEADER = """
            <meta name="csrf-token" content="tok-123">
            <form class="inline" method="post" action="/jpetstore/signoff">
              <button type="submit" class="link" id="sign-off">Sign off</button></form>""";

    private static ShopPage page(String path, String body) {
        return new ShopPage(200, body, URI.create("http://127.0.0.1:1/jpetstore" + path));
    }

    @Test
    void tellsSignedOnFromSignedOffAndReadsTheToken() {
        ShopPage on = page("/", SIGNED_ON_HEADER);
        ShopPage off = page("/", "<a href=\"/jpetstore/signon\" id=\"sign-on\">Sign on</a>");

        assertThat(on.signedOn()).isTrue();
        assertThat(on.signedOff()).isFalse();
        assertThat(on.csrfToken()).contains("tok-123");
        assertThat(off.signedOn()).isFalse();
        assertThat(off.signedOff()).isTrue();
        assertThat(off.csrfToken()).isEmpty();
        assertThat(page("/checkout/confirm", "").path()).isEqualTo("/checkout/confirm");
    }

    @Test
    void readsResultLinksOnceEachInPageOrder() {
        ShopPage results = page("/search", """
                <td class="mono"><a href="/jpetstore/product?id=BP-7">BP-7</a></td>
                <td><a href="/jpetstore/product?id=BP-7">Cloverspark Opalfin Beagle</a></td>
                <td class="mono"><a href="/jpetstore/product?id=BP-12">BP-12</a></td>""");
        ShopPage product = page("/product", """
                <a href="/jpetstore/item?id=BI-13">BI-13</a><a href="/jpetstore/item?id=BI-14">BI-14</a>""");

        assertThat(results.productLinks()).containsExactly("BP-7", "BP-12");
        assertThat(product.itemLinks()).containsExactly("BI-13", "BI-14");
    }

    @Test
    void readsOnlyThePagesOwnLinksNotTheFootersLastViewedItem() {
        ShopPage product = page("/product", """
                <header><a href="/jpetstore/cart">Cart</a></header>
                <main class="wrap"><a href="/jpetstore/item?id=BI-13">BI-13</a><a href="/jpetstore/item?id=BI-14">BI-14</a></main>
                <footer><p>Last viewed: <a href="/jpetstore/item?id=BI-7">Opalfin</a></p></footer>""");

        assertThat(product.itemLinks()).containsExactly("BI-13", "BI-14");
    }

    @Test
    void readsAmountsWithThousandsSeparators() {
        ShopPage item = page("/item", "<dd class=\"price\" id=\"price\">$1,234.50</dd>");

        assertThat(item.amount("price")).contains(new BigDecimal("1234.50"));
        assertThat(item.amount("total")).isEmpty();
    }

    @Test
    void readsTheCartsQuantities() {
        ShopPage cart = page("/cart", """
                <tr data-item="BI-3"><td class="num"><input class="qty" type="number" min="0" max="99"
                    form="update-cart" aria-label="Quantity of BI-3"
                    name="quantity-BI-3" value="2"></td></tr>
                <tr data-item="EST-1"><td><input class="qty" name="quantity-EST-1" value="1"></td></tr>""");

        assertThat(cart.cartQuantities()).isEqualTo(Map.of("BI-3", 2, "EST-1", 1));
        assertThat(page("/cart", "<p id=\"cart-empty\">Your cart is empty.</p>").cartQuantities()).isEmpty();
    }

    @Test
    void readsTheHiddenFieldsOfTheFormPostingToAPathButNotItsToken() {
        ShopPage confirmation = page("/checkout/confirm", SIGNED_ON_HEADER.replace("<button",
                "<input type=\"hidden\" name=\"_csrf\" value=\"tok-123\"><button") + """
                <form method="post" action="/jpetstore/checkout/confirm" class="actions">
                  <input type="hidden" name="_csrf" value="tok-123">
                  <input type="hidden" name="orderToken" value="Xy-9_a">
                  <input type="hidden" name="orderFingerprint" value="c1.d&amp;2">
                  <button type="submit" id="place-order">Place order</button>
                </form>""");

        assertThat(confirmation.hiddenFields("/checkout/confirm"))
                .containsExactly("orderToken", "Xy-9_a", "orderFingerprint", "c1.d&2");
        assertThat(confirmation.hiddenFields("/signoff")).isEmpty();
        assertThat(confirmation.hiddenFields("/cart/add")).isEmpty();
    }

    @Test
    void readsOrderLinesOfTheConfirmationAndOfThePlacedOrder() {
        ShopPage confirmation = page("/checkout/confirm", """
                <table class="list" id="order-lines"><thead><tr><th>Item</th></tr></thead><tbody>
                  <tr><td class="mono">BI-3</td><td>Young Beagle</td><td class="num">$10.00</td>
                      <td class="num">2</td><td class="num">$20.00</td></tr>
                  <tr><td class="mono">BI-8</td><td>Adult Koi</td><td class="num">$5.50</td>
                      <td class="num">1</td><td class="num">$5.50</td></tr>
                </tbody><tfoot><tr><th colspan="4">Total</th><th class="num" id="total">$25.50</th></tr></tfoot></table>""");
        ShopPage order = page("/orders/view", """
                <table class="list" id="order-lines"><thead><tr><th>#</th></tr></thead><tbody>
                  <tr><td>1</td><td class="mono"><a href="/jpetstore/item?id=BI-3">BI-3</a></td><td>Young Beagle</td>
                      <td class="num">$10.00</td><td class="num">2</td><td class="num">$20.00</td></tr>
                </tbody><tfoot><tr><th colspan="5">Total</th><th class="num" id="total">$20.00</th></tr></tfoot></table>""");

        assertThat(confirmation.orderLines()).isEqualTo(Map.of("BI-3", 2, "BI-8", 1));
        assertThat(confirmation.amount("total")).contains(new BigDecimal("25.50"));
        assertThat(order.orderLines()).isEqualTo(Map.of("BI-3", 2));
        assertThat(page("/", "no table").orderLines()).isEmpty();
    }
}
