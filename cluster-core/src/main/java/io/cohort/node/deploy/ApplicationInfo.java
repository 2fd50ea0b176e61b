package io.cohort.node.deploy;

import java.time.Instant;

/**
 * What the node reports about a deployed application.
 *
 * @param name application name
 * @param contextPath where it is served
 * @param distributable whether it declares {@code <distributable/>} (its sessions are replicated)
 * @param deployedAt when this version started serving
 * @param warSha256 hex SHA-256 of the WAR this version was deployed from
 * @param sessions sessions currently held in this node's memory
 */
public record ApplicationInfo(String name, String contextPath, boolean distributable, Instant deployedAt,
        String warSha256, long sessions) {
}
