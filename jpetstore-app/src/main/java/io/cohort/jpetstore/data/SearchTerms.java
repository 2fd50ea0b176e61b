package io.cohort.jpetstore.data;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Turns text into search keywords. The same rule indexes product names and reads what customers type,
 * so a search is an exact match on the keyword table: lower case, runs of letters and digits, and a
 * plural "s" dropped ("Dogs" and "dog" both become "dog").
 */
public final class SearchTerms {
    /** Longest keyword stored; longer words are cut to this length on both sides. */
    public static final int MAX_KEYWORD_LENGTH = 40;
    /** Most keywords one search looks for. */
    public static final int MAX_TERMS = 10;

    private SearchTerms() {
    }

    /** The distinct keywords of a text, in order of appearance. */
    public static List<String> of(String text) {
        Set<String> terms = new LinkedHashSet<>();
        if (text != null) {
            for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{Alnum}]+")) {
                if (!word.isEmpty()) {
                    terms.add(normalize(word));
                }
            }
        }
        return List.copyOf(terms);
    }

    static String normalize(String word) {
        String w = word.length() > MAX_KEYWORD_LENGTH ? word.substring(0, MAX_KEYWORD_LENGTH) : word;
        if (w.length() > 3 && w.endsWith("s") && !w.endsWith("ss")) {
            return w.substring(0, w.length() - 1);
        }
        return w;
    }
}
