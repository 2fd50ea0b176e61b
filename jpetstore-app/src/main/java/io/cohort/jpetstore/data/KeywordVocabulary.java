package io.cohort.jpetstore.data;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Made-up compound words ("amberwing", "slatefin") for benchmark product names. They are not English words
 * and share no keyword with the standard data set, so a search for one finds only the benchmark products
 * named with it. The order is a fixed shuffle, the same on every JVM, so the first {@code n} words are
 * always the same {@code n}.
 */
public final class KeywordVocabulary {
    private static final List<String> PREFIXES = List.of(
            "amber", "azure", "birch", "bramble", "brook", "cedar", "cinder", "clover", "cobalt", "copper",
            "coral", "crimson", "dapple", "dusk", "ember", "fern", "frost", "gale", "ginger", "granite",
            "harbor", "hazel", "heather", "indigo", "ivory", "jade", "juniper", "lark", "linen", "maple",
            "meadow", "misty", "moss", "nutmeg", "ochre", "opal", "pebble", "pine", "quartz", "russet",
            "saffron", "sage", "slate", "sorrel", "thistle", "umber", "willow", "zephyr");
    /** None ends in "s", which {@link SearchTerms} would strip as a plural. */
    private static final List<String> SUFFIXES = List.of(
            "back", "beak", "bell", "brow", "claw", "coat", "comb", "crest", "dart", "down",
            "fang", "feather", "fin", "flank", "flare", "foot", "frill", "gill", "glow", "hide",
            "hoof", "horn", "jaw", "leap", "mane", "mark", "nose", "paw", "plume", "quill",
            "ridge", "ruff", "scale", "shade", "song", "spark", "spot", "stripe", "tail", "tuft");
    private static final List<String> ALL = shuffled();

    /** How many distinct words there are. */
    public static final int CAPACITY = ALL.size();

    private KeywordVocabulary() {
    }

    /** The first {@code count} words of the fixed order. */
    public static List<String> words(int count) {
        if (count < 1 || count > CAPACITY) {
            throw new IllegalArgumentException("the vocabulary has 1.." + CAPACITY + " words, not " + count);
        }
        return ALL.subList(0, count);
    }

    private static List<String> shuffled() {
        List<String> words = new ArrayList<>(PREFIXES.size() * SUFFIXES.size());
        for (String prefix : PREFIXES) {
            for (String suffix : SUFFIXES) {
                words.add(prefix + suffix);
            }
        }
        Collections.shuffle(words, new Random(1_007L));
        return List.copyOf(words);
    }
}
