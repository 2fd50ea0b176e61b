/**
 * Session replication for Cohort nodes: the {@link io.cohort.replication.ReplicationProvider} the
 * node discovers, and below it
 * <ul>
 *   <li>{@code engine}: the policy (trigger, scope, sync/async delivery, versions) over the
 *       {@link io.cohort.replication.engine.SessionTransport} SPI, independent of any transport;</li>
 *   <li>{@code wire}: the sealed message types and their explicit binary codec;</li>
 *   <li>{@code placement}: which members hold the copies of a session (write-quota);</li>
 *   <li>{@code group}: the JGroups transports {@code peer} (TCP) and {@code multicast} (UDP):
 *       membership, backups, acknowledgements, takeover, rebalancing, security;</li>
 *   <li>{@code database}: the JDBC transport {@code database} (HikariCP; H2, PostgreSQL): session and
 *       attribute rows, ownership by optimistic owner/version checks, expiry sweeping.</li>
 * </ul>
 * Nothing here imports Jetty or the Servlet API; the node reaches it only through the session
 * store SPI of cluster-core.
 */
package io.cohort.replication;
