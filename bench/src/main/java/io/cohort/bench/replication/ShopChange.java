package io.cohort.bench.replication;

import io.cohort.jpetstore.model.Cart;
import io.cohort.jpetstore.model.Item;
import io.cohort.jpetstore.model.ProductSummary;
import io.cohort.jpetstore.model.SearchResults;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The one-attribute changes the hot-path benchmark replicates, built from the shop's own model
 * classes (unpacked from the JPetStore WAR at build time) so that serialization cost and size are
 * the shop's: see the attribute sizes in the root README.
 */
public enum ShopChange {

    /** A synthetic value that serializes to exactly 1,024 bytes (a {@code byte[997]}). */
    ONE_KIB("blob", 1024) {
        @Override
        Serializable value(int round) {
            byte[] bytes = new byte[997];
            Arrays.fill(bytes, (byte) round);
            return bytes;
        }
    },
    /** "Add to cart": the {@code cart} attribute with three lines (the README's 885 B). */
    ADD_TO_CART("cart", 885) {
        @Override
        Serializable value(int round) {
            Cart cart = Cart.empty()
                    .add(item("EST-1", "FI-SW-01", "Angelfish", "FISH", "Large (about 20 cm long)", "16.50"))
                    .add(item("EST-6", "K9-BD-01", "Bulldog", "DOGS", "Female Puppy (8 weeks)", "18.50"))
                    .add(item("EST-" + (10 + round % 10), "K9-DL-01", "Dalmatian", "DOGS", "Spotless Male Puppy (10 weeks)",
                            "18.50"));
            return cart;
        }
    },
    /** A search: the {@code searchResults} attribute with 94 products (the README's 5,202 B). */
    SEARCH("searchResults", 5202) {
        @Override
        Serializable value(int round) {
            List<ProductSummary> products = new ArrayList<>();
            String[] categories = {"FISH", "DOGS", "REPTILES", "CATS", "BIRDS"};
            for (int i = 0; i < 94; i++) {
                String category = categories[i % categories.length];
                products.add(new ProductSummary(String.format("%s-%04d", category.substring(0, 2), i + round % 7),
                        "Striped " + category.charAt(0) + category.substring(1).toLowerCase() + " pond-reared " + i,
                        category));
            }
            return new SearchResults("striped", products, false);
        }
    };

    private final String attribute;
    private final int shopSize;

    ShopChange(String attribute, int shopSize) {
        this.attribute = attribute;
        this.shopSize = shopSize;
    }

    /** The attribute the change sets. */
    public String attribute() {
        return attribute;
    }

    /** The serialized size the shop's README reports for this attribute (the target of the synthetic value). */
    public int shopSize() {
        return shopSize;
    }

    /** A fresh value; {@code round} varies it a little, as successive requests would. */
    abstract Serializable value(int round);

    private static Item item(String id, String productId, String productName, String category, String attribute,
            String price) {
        return new Item(id, productId, productName, category, attribute, new BigDecimal(price), 10_000);
    }
}
