package io.cohort.bench.study.report;

import java.util.List;
import java.util.Map;

/**
 * The study's comparison groups: which patterns it put side by side in one figure. A group is
 * shown when the run measured at least one of its patterns; patterns it did not measure are named.
 */
enum ComparisonGroup {
    PROTOCOL("Replication protocol", "no replication vs peer-to-peer (TCP) vs multicast (UDP)",
            List.of("none", "2211", "1211")),
    TRIGGER("Trigger", "onRequestEnd vs onSetAttribute vs onShutdown", List.of("2211", "2111", "2311")),
    SCOPE("Scope", "modifiedAttributes vs allAttributes, for each trigger and delivery",
            List.of("2211", "2221", "2111", "2121", "2212", "2222")),
    DELIVERY("Delivery", "asynchronous vs synchronous, with onRequestEnd and onSetAttribute",
            List.of("2211", "2212", "2111", "2112")),
    WRITE_QUOTA("Write-quota", "copies to 1, 2 and 3 other members", List.of("2211", "2211wq2", "2211wq3")),
    DATABASE("Database", "sessions stored through JDBC vs no replication", List.of("none", "3211"));

    /** What each pattern means, for legends and tables. */
    static final Map<String, String> PATTERN_NAMES = Map.ofEntries(
            Map.entry("none", "no replication"),
            Map.entry("2211", "peer, onRequestEnd, modified, async"),
            Map.entry("1211", "multicast, onRequestEnd, modified, async"),
            Map.entry("2111", "peer, onSetAttribute, modified, async"),
            Map.entry("2311", "peer, onShutdown, modified, async"),
            Map.entry("2221", "peer, onRequestEnd, all, async"),
            Map.entry("2121", "peer, onSetAttribute, all, async"),
            Map.entry("2212", "peer, onRequestEnd, modified, sync"),
            Map.entry("2222", "peer, onRequestEnd, all, sync"),
            Map.entry("2112", "peer, onSetAttribute, modified, sync"),
            Map.entry("2122", "peer, onSetAttribute, all, sync"),
            Map.entry("2211wq2", "2211 with write-quota 2"),
            Map.entry("2211wq3", "2211 with write-quota 3"),
            Map.entry("3211", "database, onRequestEnd, modified, async"));

    private final String title;
    private final String question;
    private final List<String> patterns;

    ComparisonGroup(String title, String question, List<String> patterns) {
        this.title = title;
        this.question = question;
        this.patterns = patterns;
    }

    String title() {
        return title;
    }

    String question() {
        return question;
    }

    List<String> patterns() {
        return patterns;
    }

    String slug() {
        return Format.slug(name());
    }

    /** "2211 (peer, onRequestEnd, modified, async)", or the bare pattern when it is not one of the study's. */
    static String legend(String pattern) {
        String name = PATTERN_NAMES.get(pattern);
        return name == null ? pattern : pattern + " (" + name + ")";
    }
}
