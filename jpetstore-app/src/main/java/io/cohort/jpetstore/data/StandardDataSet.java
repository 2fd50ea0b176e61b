package io.cohort.jpetstore.data;

import io.cohort.jpetstore.model.Account;
import io.cohort.jpetstore.model.Address;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The standard JPetStore data: 5 categories, 16 products, 28 items EST-1..EST-28 and the demo accounts
 * j2ee/j2ee and ACID/ACID, read from {@code standard-data.txt} beside this class.
 */
final class StandardDataSet {
    private static final String RESOURCE = "standard-data.txt";

    private final List<String[]> rows;

    private StandardDataSet(List<String[]> rows) {
        this.rows = rows;
    }

    static StandardDataSet read() {
        try (InputStream in = StandardDataSet.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            List<String[]> rows = new ArrayList<>();
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    rows.add(line.split("\\|", -1));
                }
            }
            return new StandardDataSet(rows);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + RESOURCE, e);
        }
    }

    void writeTo(CatalogWriter writer) throws SQLException {
        for (String[] f : rows) {
            switch (f[0]) {
                case "category" -> writer.category(f[1], f[2], f[3]);
                case "product" -> writer.product(f[1], f[2], f[3], f[4]);
                case "item" -> writer.item(f[1], f[2], f[3], new BigDecimal(f[4]), new BigDecimal(f[5]),
                        Integer.parseInt(f[6]));
                case "account" -> writer.account(account(f), PasswordHasher.hash(f[2]));
                default -> throw new IllegalStateException(RESOURCE + ": unknown row type " + f[0]);
            }
        }
    }

    /** Every distinct keyword of the product names: what a load driver may search in the standard data set. */
    List<String> productNameKeywords() {
        Set<String> words = new LinkedHashSet<>();
        for (String[] f : rows) {
            if (f[0].equals("product")) {
                words.addAll(SearchTerms.of(f[3]));
            }
        }
        return List.copyOf(words);
    }

    /** Every keyword a standard product is indexed under, including its category's. */
    Set<String> allKeywords() {
        Set<String> words = new LinkedHashSet<>(productNameKeywords());
        for (String[] f : rows) {
            if (f[0].equals("category")) {
                words.addAll(SearchTerms.of(f[2]));
            }
        }
        return words;
    }

    private static Account account(String[] f) {
        Address address = new Address(f[5], f[6], f[7], f[8], f[9], f[10], f[11], f[12]);
        return new Account(f[1], f[3], f[4], address, f[13]);
    }
}
