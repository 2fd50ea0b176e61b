package io.cohort.bench.jmeter;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The samples of a JMeter results file in JMeter's default CSV format (a header line, then one
 * line per sample; quoted fields may span lines). A page fetched with "follow redirects" is one
 * sample under the page's label; its requests appear again as sub-samples labelled
 * {@code <label>-0}, {@code <label>-1}, ... unless {@code jmeter.save.saveservice.subresults=false}.
 *
 * @param samples every sample, in file order
 */
record JtlResults(List<Sample> samples) {

    private static final Pattern SUB_SAMPLE = Pattern.compile("(.+)-\\d+");
    private static final Set<String> REQUIRED_COLUMNS = Set.of("label", "success", "responseCode", "failureMessage");

    JtlResults {
        samples = List.copyOf(samples);
    }

    /**
     * One line of the file.
     *
     * @param label          the sampler's name (or a sub-sample's)
     * @param success        whether the request and every assertion passed
     * @param responseCode   HTTP status, or JMeter's text for a non-HTTP failure
     * @param failureMessage the first failed assertion's message, or ""
     */
    record Sample(String label, boolean success, String responseCode, String failureMessage) {
    }

    static JtlResults read(Path jtl) throws IOException {
        CsvMapper csv = new CsvMapper();
        List<Sample> samples = new ArrayList<>();
        try (MappingIterator<Map<String, String>> rows = csv.readerForMapOf(String.class)
                .with(CsvSchema.emptySchema().withHeader())
                .readValues(jtl.toFile())) {
            while (rows.hasNext()) {
                Map<String, String> row = rows.next();
                if (!row.keySet().containsAll(REQUIRED_COLUMNS)) {
                    throw new IOException(jtl + " is not a JMeter CSV results file with a header naming "
                            + REQUIRED_COLUMNS + ": " + row.keySet());
                }
                samples.add(new Sample(row.get("label"), Boolean.parseBoolean(row.get("success")),
                        row.get("responseCode"), row.get("failureMessage")));
            }
        }
        return new JtlResults(samples);
    }

    /** The samples of whole pages: without the redirect sub-samples of the listed page labels. */
    List<Sample> pages(Set<String> pageLabels) {
        return samples.stream().filter(s -> !isSubSampleOf(s.label(), pageLabels)).toList();
    }

    /** How many page samples each label has, sorted by label. */
    Map<String, Long> countByLabel(Set<String> pageLabels) {
        Map<String, Long> counts = new TreeMap<>();
        pages(pageLabels).forEach(s -> counts.merge(s.label(), 1L, Long::sum));
        return counts;
    }

    /** Every failed sample, sub-samples included. */
    List<Sample> failures() {
        return samples.stream().filter(s -> !s.success()).toList();
    }

    private static boolean isSubSampleOf(String label, Set<String> pageLabels) {
        Matcher m = SUB_SAMPLE.matcher(label);
        return !pageLabels.contains(label) && m.matches() && pageLabels.contains(m.group(1));
    }
}
