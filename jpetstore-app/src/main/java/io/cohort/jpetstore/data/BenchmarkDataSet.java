package io.cohort.jpetstore.data;

import io.cohort.jpetstore.model.Account;
import io.cohort.jpetstore.model.Address;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Generated data for the benchmark, loaded on top of the standard data set. Everything a load driver needs
 * is predictable:
 * <ul>
 *   <li>accounts {@code user0 .. user<N-1>}, all with the password {@value #PASSWORD};</li>
 *   <li>products {@code BP-1 .. BP-<M>}, each sold as two items, {@code BI-<2k-1>} (Young) and {@code BI-<2k>}
 *       (Adult) for product {@code BP-k}, with {@value #STOCK} in stock;</li>
 *   <li>product names made of two words of the {@link KeywordVocabulary} and an animal ("Amberwing Slatefin
 *       Beagle"). The vocabulary is cut to {@link #vocabularySize(int)} words so that each word names about
 *       {@value #TARGET_RESULTS_PER_KEYWORD} products: a search for a random benchmark keyword returns about
 *       that many. The words in use are stored in {@code benchmark_keyword}.</li>
 * </ul>
 * The same sizes give the same data (fixed random seed).
 */
public final class BenchmarkDataSet {
    public static final String PASSWORD = "password";
    /**
     * PBKDF2 iterations of the benchmark accounts, far below {@link PasswordHasher#DEFAULT_ITERATIONS} on purpose:
     * every virtual user signs on once per scenario, and the benchmark measures session replication, not hashing.
     */
    public static final int PASSWORD_ITERATIONS = 1_000;
    public static final int TARGET_RESULTS_PER_KEYWORD = 100;
    public static final int KEYWORDS_PER_PRODUCT = 2;
    public static final int STOCK = 1_000_000;
    /** Most products for which the vocabulary still keeps about {@value #TARGET_RESULTS_PER_KEYWORD} per keyword. */
    public static final int MAX_PRODUCTS = KeywordVocabulary.CAPACITY * TARGET_RESULTS_PER_KEYWORD / KEYWORDS_PER_PRODUCT;
    public static final int MAX_ACCOUNTS = 1_000_000;

    private static final long SEED = 20_070_101L;
    private static final List<Species> SPECIES = List.of(
            new Species("FISH", "Guppy"), new Species("DOGS", "Beagle"), new Species("REPTILES", "Gecko"),
            new Species("CATS", "Siamese"), new Species("BIRDS", "Canary"), new Species("FISH", "Tetra"),
            new Species("DOGS", "Terrier"), new Species("REPTILES", "Tortoise"), new Species("CATS", "Ragdoll"),
            new Species("BIRDS", "Cockatiel"), new Species("FISH", "Discus"), new Species("DOGS", "Spaniel"),
            new Species("REPTILES", "Chameleon"), new Species("CATS", "Bengal"), new Species("BIRDS", "Lovebird"));

    private final int accounts;
    private final int products;

    public BenchmarkDataSet(int accounts, int products) {
        if (accounts < 1 || accounts > MAX_ACCOUNTS) {
            throw new IllegalArgumentException("benchmark accounts must be 1.." + MAX_ACCOUNTS + ", not " + accounts);
        }
        if (products < 1 || products > MAX_PRODUCTS) {
            throw new IllegalArgumentException("benchmark products must be 1.." + MAX_PRODUCTS + ", not " + products);
        }
        this.accounts = accounts;
        this.products = products;
    }

    /** How many vocabulary words name {@code products} products, about {@value #TARGET_RESULTS_PER_KEYWORD} each. */
    public static int vocabularySize(int products) {
        long words = Math.round((double) KEYWORDS_PER_PRODUCT * products / TARGET_RESULTS_PER_KEYWORD);
        return (int) Math.max(1, Math.min(KeywordVocabulary.CAPACITY, words));
    }

    public static String username(int n) {
        return "user" + n;
    }

    /** The animal nouns used in benchmark product names; none is a vocabulary word. */
    static List<String> animalNames() {
        return SPECIES.stream().map(Species::noun).toList();
    }

    void writeTo(CatalogWriter writer) throws SQLException {
        List<String> words = KeywordVocabulary.words(vocabularySize(products));
        for (String word : words) {
            writer.benchmarkKeyword(word);
        }
        Random random = new Random(SEED);
        for (int p = 1; p <= products; p++) {
            writeProduct(writer, p, words, random);
        }
        String hash = PasswordHasher.hash(PASSWORD, PASSWORD_ITERATIONS);
        for (int a = 0; a < accounts; a++) {
            writer.account(account(a), hash);
        }
    }

    private static void writeProduct(CatalogWriter writer, int p, List<String> words, Random random)
            throws SQLException {
        Species species = SPECIES.get(p % SPECIES.size());
        String first = words.get(random.nextInt(words.size()));
        String second = first;
        while (second.equals(first) && words.size() > 1) {
            second = words.get(random.nextInt(words.size()));
        }
        String name = capitalized(first) + (second.equals(first) ? "" : " " + capitalized(second)) + " "
                + species.noun();
        String productId = "BP-" + p;
        writer.product(productId, species.categoryId(), name,
                "A " + species.noun().toLowerCase(Locale.ROOT) + " from the benchmark catalogue");
        BigDecimal price = BigDecimal.valueOf(500 + random.nextInt(49_500), 2);
        BigDecimal cost = price.multiply(BigDecimal.valueOf(6, 1)).setScale(2, RoundingMode.HALF_UP);
        writer.item("BI-" + (2 * p - 1), productId, "Young", price, cost, STOCK);
        writer.item("BI-" + (2 * p), productId, "Adult", price.add(BigDecimal.TEN), cost, STOCK);
    }

    private static Account account(int n) {
        String username = username(n);
        Address address = new Address("Bench", "User" + n, n + " Benchmark Way", "", "Redwood Shores", "CA",
                "94065", "USA");
        return new Account(username, username + "@example.com", "555-555-0100", address,
                SPECIES.get(n % SPECIES.size()).categoryId());
    }

    private static String capitalized(String word) {
        return Character.toUpperCase(word.charAt(0)) + word.substring(1);
    }

    private record Species(String categoryId, String noun) {
    }
}
