package io.cohort.bench.study.report;

import io.cohort.bench.study.model.ExperimentResult;
import io.cohort.bench.study.model.ExperimentSpec;
import io.cohort.bench.study.model.RunManifest;
import io.cohort.bench.study.model.SystemNames;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The experiments of one run, indexed the way the report asks for them.
 *
 * <p>The study's comparisons use only steady experiments (no node killed) of the target {@value SystemNames#COHORT};
 * failover experiments and other targets (peer baselines) are listed separately. Loads are ordered by
 * users per node. The "medium" load is the one labelled {@code medium}, else the lightest; the "high"
 * load the one labelled {@code high}, else the heaviest when it is heavier than the medium one.
 */
final class RunData {

    /** The pattern without replication, the baseline of every ratio. */
    static final String NONE = "none";
    static final String MEDIUM = "medium";
    static final String HIGH = "high";

    private final RunManifest manifest;
    private final List<ExperimentResult> all;
    private final Map<String, Integer> usersPerNodeByLoad;

    RunData(RunManifest manifest, List<ExperimentResult> results) {
        this.manifest = Objects.requireNonNull(manifest, "manifest");
        this.all = List.copyOf(results);
        Map<String, Integer> loads = new LinkedHashMap<>();
        all.stream().map(ExperimentResult::spec)
                .sorted(Comparator.comparingInt(ExperimentSpec::usersPerNode))
                .forEach(s -> loads.merge(s.load(), s.usersPerNode(), Math::max));
        this.usersPerNodeByLoad = loads;
    }

    RunManifest manifest() {
        return manifest;
    }

    /** Every experiment, in run order. */
    List<ExperimentResult> all() {
        return all;
    }

    /** Experiments with a node killed, in run order. */
    List<ExperimentResult> failovers() {
        return all.stream().filter(r -> r.spec().failover()).toList();
    }

    /**
     * The steady Cohort experiment of this pattern, size and load, if the run has it; of a pattern measured in
     * several rounds, the first round's.
     */
    Optional<ExperimentResult> find(String pattern, int nodes, String load) {
        return find(SystemNames.COHORT, pattern, nodes, load);
    }

    Optional<ExperimentResult> find(String target, String pattern, int nodes, String load) {
        return rounds(target, pattern, nodes, load).stream().findFirst();
    }

    /** Every round of the steady Cohort experiment of this pattern, size and load, in run order. */
    List<ExperimentResult> rounds(String pattern, int nodes, String load) {
        return rounds(SystemNames.COHORT, pattern, nodes, load);
    }

    List<ExperimentResult> rounds(String target, String pattern, int nodes, String load) {
        return all.stream().filter(r -> !r.spec().failover())
                .filter(r -> r.spec().target().equals(target) && r.spec().pattern().equals(pattern)
                        && r.spec().nodes() == nodes && r.spec().load().equals(load))
                .toList();
    }

    /** Whether some steady experiment was measured in more than one round. */
    boolean hasRounds() {
        return all.stream().anyMatch(r -> !r.spec().failover() && r.spec().round() > 1);
    }

    /** Load labels, lightest first. */
    List<String> loads() {
        return List.copyOf(usersPerNodeByLoad.keySet());
    }

    int usersPerNode(String load) {
        Integer users = usersPerNodeByLoad.get(load);
        if (users == null) {
            throw new IllegalArgumentException("no experiment at load " + load);
        }
        return users;
    }

    /** "medium (350 users per node)". */
    String describeLoad(String load) {
        return load + " (" + usersPerNode(load) + " users per node)";
    }

    Optional<String> mediumLoad() {
        if (usersPerNodeByLoad.containsKey(MEDIUM)) {
            return Optional.of(MEDIUM);
        }
        return loads().stream().filter(l -> !l.equals(HIGH)).findFirst();
    }

    Optional<String> highLoad() {
        if (usersPerNodeByLoad.containsKey(HIGH)) {
            return Optional.of(HIGH);
        }
        List<String> loads = loads();
        if (loads.isEmpty()) {
            return Optional.empty();
        }
        String heaviest = loads.get(loads.size() - 1);
        Optional<String> medium = mediumLoad();
        return medium.isPresent() && usersPerNode(heaviest) > usersPerNode(medium.get())
                ? Optional.of(heaviest) : Optional.empty();
    }

    /** The heaviest load of the run. */
    Optional<String> highestLoad() {
        List<String> loads = loads();
        return loads.isEmpty() ? Optional.empty() : Optional.of(loads.get(loads.size() - 1));
    }

    /** Sizes at which the steady Cohort pattern was measured at this load, ascending. */
    List<Integer> nodeCounts(String pattern, String load) {
        TreeSet<Integer> sizes = new TreeSet<>();
        all.stream().map(ExperimentResult::spec)
                .filter(s -> !s.failover() && s.target().equals(SystemNames.COHORT) && s.pattern().equals(pattern)
                        && s.load().equals(load))
                .forEach(s -> sizes.add(s.nodes()));
        return List.copyOf(sizes);
    }

    /** Sizes of at least {@code minNodes} at which every one of the patterns was measured at this load. */
    List<Integer> commonNodeCounts(String load, int minNodes, List<String> patterns) {
        TreeSet<Integer> common = null;
        for (String pattern : patterns) {
            TreeSet<Integer> sizes = new TreeSet<>(nodeCounts(pattern, load));
            sizes.removeIf(n -> n < minNodes);
            if (common == null) {
                common = sizes;
            } else {
                common.retainAll(sizes);
            }
        }
        return common == null ? List.of() : List.copyOf(common);
    }

    /** The largest size (at least {@code minNodes}) at which every one of the patterns was measured. */
    Optional<Integer> largestCommonNodeCount(String load, int minNodes, List<String> patterns) {
        List<Integer> common = commonNodeCounts(load, minNodes, patterns);
        return common.isEmpty() ? Optional.empty() : Optional.of(common.get(common.size() - 1));
    }

    /** "2211 at 2, 4 nodes; 2111 not measured" — what the run has of these patterns at this load. */
    String describeCoverage(String load, List<String> patterns) {
        StringBuilder text = new StringBuilder();
        for (String pattern : patterns) {
            if (!text.isEmpty()) {
                text.append("; ");
            }
            List<Integer> sizes = nodeCounts(pattern, load);
            text.append(pattern).append(sizes.isEmpty() ? " not measured" : " at " + Format.sizes(sizes));
        }
        return text.toString();
    }
}
