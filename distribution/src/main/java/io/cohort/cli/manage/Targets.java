package io.cohort.cli.manage;

import java.util.List;
import java.util.Optional;

/**
 * The members a command addresses, and the admin token to address them with.
 *
 * @param nodes the members, in cluster order
 * @param token the admin API bearer token, if one is known
 */
public record Targets(List<Target> nodes, Optional<String> token) {

    public Targets {
        nodes = List.copyOf(nodes);
    }
}
