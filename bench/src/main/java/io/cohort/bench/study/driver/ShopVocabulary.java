package io.cohort.bench.study.driver;

import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The search keywords of the benchmark data set, as the shop serves them at {@code /keywords.txt}: a random one
 * finds about 100 products.
 */
record ShopVocabulary(List<String> keywords) {

    ShopVocabulary {
        keywords = List.copyOf(keywords);
        if (keywords.isEmpty()) {
            throw new IllegalArgumentException("the shop offers no search keywords (is the benchmark data set loaded?)");
        }
    }

    static ShopVocabulary parse(String keywordsTxt) {
        return new ShopVocabulary(keywordsTxt.lines().map(String::strip).filter(w -> !w.isEmpty()).toList());
    }

    String pick(RandomGenerator random) {
        return keywords.get(random.nextInt(keywords.size()));
    }
}
