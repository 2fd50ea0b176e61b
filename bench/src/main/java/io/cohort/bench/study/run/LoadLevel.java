package io.cohort.bench.study.run;

/**
 * Virtual users per node, as the user names it: {@code medium}, {@code high} or a number. The study used 350
 * (medium) and 700 (high, the knee of one node) with 300 ms think time on 2007 hardware. Here the driver, the
 * balancers and the nodes share one machine, so the levels are calibrated on it (bench/README.md, "Load
 * levels"): {@link #MEDIUM_USERS} keeps one node well below saturation, {@link #HIGH_USERS} saturates the machine.
 *
 * @param label         as given: {@code medium}, {@code high} or the number
 * @param usersPerNode  virtual users per node
 */
public record LoadLevel(String label, int usersPerNode) {

    /** Well below saturation of one node on the 2-core reference machine (measured: see bench/README.md). */
    public static final int MEDIUM_USERS = 20;
    /**
     * Saturates the 2-core reference machine with 2 nodes (both cores busy, response time many times medium's,
     * after a 60 s warm-up); one node alone uses 60–80 % of a core at it (measured: see bench/README.md).
     */
    public static final int HIGH_USERS = 200;

    public LoadLevel {
        if (usersPerNode < 1) {
            throw new IllegalArgumentException("load must be at least 1 user per node: " + usersPerNode);
        }
    }

    /** {@code medium}, {@code high}, or a positive number of users per node. */
    public static LoadLevel parse(String text) {
        String value = text.strip().toLowerCase(java.util.Locale.ROOT);
        return switch (value) {
            case "medium" -> new LoadLevel("medium", MEDIUM_USERS);
            case "high" -> new LoadLevel("high", HIGH_USERS);
            default -> {
                try {
                    yield new LoadLevel(value, Integer.parseInt(value));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("load must be medium, high or a number of users per node: "
                            + text);
                }
            }
        };
    }

    @Override
    public String toString() {
        return label.equals(Integer.toString(usersPerNode)) ? usersPerNode + " users/node"
                : label + " (" + usersPerNode + " users/node)";
    }
}
