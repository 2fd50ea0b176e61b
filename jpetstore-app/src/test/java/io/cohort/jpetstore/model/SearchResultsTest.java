package io.cohort.jpetstore.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SearchResultsTest {
    private static SearchResults results(int count) {
        List<ProductSummary> products = IntStream.range(0, count)
                .mapToObj(i -> new ProductSummary("P-" + i, "Name " + i, "FISH")).toList();
        return new SearchResults("fish", products, false);
    }

    @Test
    void resultsArePagedByTen() {
        SearchResults results = results(23);
        assertThat(results.pageCount()).isEqualTo(3);
        assertThat(results.page(1)).hasSize(10).first().extracting(ProductSummary::id).isEqualTo("P-0");
        assertThat(results.page(3)).extracting(ProductSummary::id).containsExactly("P-20", "P-21", "P-22");
        assertThat(results.page(4)).isEmpty();
    }

    @Test
    void noResultsStillMakeOnePage() {
        assertThat(results(0).pageCount()).isEqualTo(1);
        assertThat(results(0).page(1)).isEmpty();
    }
}
