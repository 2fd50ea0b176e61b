/**
 * Cohort's HTTP load balancer: a reverse proxy on Jetty 12's {@code ProxyHandler} and
 * {@code HttpClient} in front of the nodes of a cluster.
 *
 * <p>Start at {@link io.cohort.balancer.BalancerServer}. A request is placed by
 * {@link io.cohort.balancer.Router}: to the live owner of its session (the route suffix of the
 * session id), else to the first live backup holder the nodes named in the {@code COHORT_BACKUP}
 * cookie, else by the configured {@link io.cohort.balancer.RoutePolicy}.
 * {@link io.cohort.balancer.HealthChecker} keeps each member's up/down state from active checks,
 * and the proxy marks a member down when a connection to it fails. The proxy retries a request at
 * most once, on another member, and only when that cannot run it twice.
 */
package io.cohort.balancer;
