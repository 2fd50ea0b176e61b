package io.cohort.jpetstore.data;

import io.cohort.jpetstore.model.ProductSummary;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.sql.DataSource;

/**
 * Keyword search over the {@code product_keyword} table, which holds the {@link SearchTerms} of every
 * product name and category. A search is an index range scan per keyword, never a scan of all products.
 * A product matches when it carries any of the keywords; results are ordered by name.
 */
public final class ProductSearch {
    private final SqlRunner sql;

    public ProductSearch(DataSource dataSource) {
        this.sql = new SqlRunner(dataSource);
    }

    /**
     * Products matching any keyword of {@code text}, at most {@code limit} of them.
     * Text without keywords finds nothing.
     */
    public List<ProductSummary> search(String text, int limit) {
        List<String> terms = SearchTerms.of(text);
        if (terms.isEmpty() || limit <= 0) {
            return List.of();
        }
        List<String> used = terms.subList(0, Math.min(terms.size(), SearchTerms.MAX_TERMS));
        String placeholders = String.join(", ", Collections.nCopies(used.size(), "?"));
        List<Object> params = new ArrayList<>(used);
        params.add(limit);
        return sql.list("SELECT p.product_id, p.name, p.category_id FROM product p WHERE p.product_id IN"
                        + " (SELECT k.product_id FROM product_keyword k WHERE k.keyword IN (" + placeholders + "))"
                        + " ORDER BY p.name, p.product_id LIMIT ?",
                rs -> new ProductSummary(rs.getString(1), rs.getString(2), rs.getString(3)), params.toArray());
    }

    /** The keywords a load driver should search for: the benchmark vocabulary in use, or the demo's keywords. */
    public List<String> benchmarkKeywords() {
        return sql.list("SELECT keyword FROM benchmark_keyword ORDER BY keyword", rs -> rs.getString(1));
    }
}
