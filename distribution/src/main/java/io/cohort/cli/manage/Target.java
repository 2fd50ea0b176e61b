package io.cohort.cli.manage;

import java.net.URI;

/**
 * A node that a command talks to.
 *
 * @param name  its name, or its admin address's host:port when only the address is known
 * @param admin its admin endpoint
 */
public record Target(String name, URI admin) {
}
