package io.cohort.jpetstore.data;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SearchTermsTest {
    @Test
    void textBecomesLowerCaseWordsWithoutPluralS() {
        assertThat(SearchTerms.of("Golden Retrievers, DOGS & cats!")).containsExactly("golden", "retriever", "dog", "cat");
    }

    @Test
    void shortWordsAndDoubleSAreKept() {
        assertThat(SearchTerms.of("bus grass koi")).containsExactly("bus", "grass", "koi");
    }

    @Test
    void repeatedAndEmptyInputGivesDistinctTermsOrNone() {
        assertThat(SearchTerms.of("fish Fish fishes")).containsExactly("fish", "fishe");
        assertThat(SearchTerms.of(" -- ")).isEmpty();
        assertThat(SearchTerms.of(null)).isEmpty();
    }
}
