package io.cohort.balancer;

import java.net.URI;

/**
 * A member as the balancer sees it now; what {@code GET /health} of the balancer lists.
 *
 * @param name           the member's route
 * @param host           the host it counts as
 * @param url            where requests go
 * @param up             whether it receives requests
 * @param spareCapacity  the spare capacity it last reported, 0 to 1 (0 until it reports)
 * @param activeRequests requests in flight to it through this balancer
 * @param weight         its weight for the weighted policies
 */
public record MemberStatus(String name, String host, URI url, boolean up, double spareCapacity, int activeRequests, int weight) {

    static MemberStatus of(Backend backend) {
        return new MemberStatus(backend.name(), backend.member().host(), backend.member().url(), backend.isUp(), backend.spareCapacity(),
                backend.inFlight(), backend.weight());
    }
}
