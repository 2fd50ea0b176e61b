package io.cohort.jpetstore.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeywordVocabularyTest {
    @Test
    void wordsAreDistinctAndAreTheirOwnSearchTerms() {
        List<String> all = KeywordVocabulary.words(KeywordVocabulary.CAPACITY);
        assertThat(new HashSet<>(all)).hasSize(KeywordVocabulary.CAPACITY);
        for (String word : all) {
            assertThat(SearchTerms.of(word)).as(word).containsExactly(word);
        }
    }

    @Test
    void noWordIsAlsoAKeywordOfTheStandardDataOrOfTheAnimalNames() {
        Set<String> taken = new HashSet<>(StandardDataSet.read().allKeywords());
        BenchmarkDataSet.animalNames().forEach(n -> taken.addAll(SearchTerms.of(n)));
        assertThat(KeywordVocabulary.words(KeywordVocabulary.CAPACITY)).doesNotContainAnyElementsOf(taken);
    }

    @Test
    void theFirstWordsAreAlwaysTheSame() {
        assertThat(KeywordVocabulary.words(50)).isEqualTo(KeywordVocabulary.words(KeywordVocabulary.CAPACITY).subList(0, 50));
        assertThatThrownBy(() -> KeywordVocabulary.words(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void vocabularyIsSizedForOneHundredProductsPerKeyword() {
        assertThat(BenchmarkDataSet.vocabularySize(50_000)).isEqualTo(1_000);
        assertThat(BenchmarkDataSet.vocabularySize(5_000)).isEqualTo(100);
        assertThat(BenchmarkDataSet.vocabularySize(10)).isEqualTo(1);
        assertThat(BenchmarkDataSet.MAX_PRODUCTS).isEqualTo(96_000);
    }
}
