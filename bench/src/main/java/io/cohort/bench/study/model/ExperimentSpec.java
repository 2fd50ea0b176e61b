package io.cohort.bench.study.model;

import java.time.Duration;
import java.util.Objects;

/**
 * One experiment of a run: a system under test at one size and one load, measured for a while.
 *
 * @param id            unique within the run and safe as a file name, e.g. {@code cohort-2211-n2-medium}
 * @param target        the system: {@code cohort} for Cohort nodes behind Cohort's balancers; peer
 *                      baselines use their own names (e.g. {@code tomcat-delta}, {@code haproxy})
 * @param pattern       the study's pattern notation ({@code none}, {@code 2211}, {@code 2211wq2}, …)
 * @param nodes         number of application nodes
 * @param usersPerNode  closed-loop virtual users per node (total users = nodes × usersPerNode)
 * @param load          the load's label as the user chose it: {@code medium}, {@code high} or the number
 * @param warmup        how long the load ran before measuring
 * @param duration      the measurement window
 * @param failover      whether one node is killed (SIGKILL) in the middle of the measurement window
 * @param round         which repetition of the same experiment this is, from 1 ({@code cohort bench --rounds});
 *                      0, which is what a run folder written before rounds existed reads as, means 1
 */
public record ExperimentSpec(String id, String target, String pattern, int nodes, int usersPerNode, String load,
        Duration warmup, Duration duration, boolean failover, int round) {

    public ExperimentSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(load, "load");
        Objects.requireNonNull(warmup, "warmup");
        Objects.requireNonNull(duration, "duration");
        if (!id.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("experiment id must be a file name: " + id);
        }
        if (nodes < 1 || usersPerNode < 1) {
            throw new IllegalArgumentException("nodes and usersPerNode must be ≥ 1: " + id);
        }
        if (round < 0) {
            throw new IllegalArgumentException("round must be ≥ 1: " + id);
        }
        if (round == 0) {
            round = 1;
        }
    }

    /** An experiment that is not repeated (round 1). */
    public ExperimentSpec(String id, String target, String pattern, int nodes, int usersPerNode, String load,
            Duration warmup, Duration duration, boolean failover) {
        this(id, target, pattern, nodes, usersPerNode, load, warmup, duration, failover, 1);
    }

    /** Total virtual users over the whole cluster. */
    public int users() {
        return nodes * usersPerNode;
    }
}
