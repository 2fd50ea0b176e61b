package io.cohort.jpetstore.model;

import java.io.Serial;
import java.io.Serializable;
import java.util.List;

/**
 * The last search, kept in the session as "searchResults" so that paging does not query again.
 * Bounded by {@link #MAX_RESULTS}; {@code truncated} tells that more products matched.
 */
public record SearchResults(String keywords, List<ProductSummary> products, boolean truncated)
        implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    /** Most products kept for one search. */
    public static final int MAX_RESULTS = 500;
    public static final int PAGE_SIZE = 10;

    public SearchResults {
        products = List.copyOf(products);
        if (products.size() > MAX_RESULTS) {
            throw new IllegalArgumentException("at most " + MAX_RESULTS + " results are kept");
        }
    }

    public int pageCount() {
        return Math.max(1, (products.size() + PAGE_SIZE - 1) / PAGE_SIZE);
    }

    /** Products on a 1-based page; pages past the end are empty. */
    public List<ProductSummary> page(int page) {
        if (page < 1) {
            throw new IllegalArgumentException("pages start at 1: " + page);
        }
        int from = Math.min(products.size(), (page - 1) * PAGE_SIZE);
        int to = Math.min(products.size(), from + PAGE_SIZE);
        return products.subList(from, to);
    }
}
