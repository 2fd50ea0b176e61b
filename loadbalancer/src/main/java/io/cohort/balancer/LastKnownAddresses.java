package io.cohort.balancer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.SocketAddressResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The addresses the members' host names last resolved to, shared by the balancer's HttpClients (the proxy's and the
 * health checker's) through {@link #resolverFor}: each new connection's host is resolved as HttpClient resolves it,
 * and when that fails (the DNS server does not answer, answers SERVFAIL, or no longer knows the name) for a name that
 * resolved before, the connection goes to the addresses it resolved to last instead of failing. A DNS outage then does
 * not take every member named by host down at once, as it did when the failure was the member's failed connect; a
 * member whose last known address no longer answers still fails its connects and health checks like any unreachable
 * member, so a name that is gone for good costs nothing but the wait for them. A name that never resolved fails as
 * before ({@link java.net.UnknownHostException}: the member is unreachable). Literal addresses involve no lookup and
 * are not kept.
 *
 * <p>The first fallback for a host is logged at WARN and its next successful resolution at INFO; every fallback is
 * counted in {@code cohort_balancer_resolution_fallbacks_total{host}}. Thread-safe: resolutions complete on
 * HttpClient's threads.
 */
final class LastKnownAddresses {

    /** What HttpClient does by default: a lookup on its executor, bounded by its address resolution timeout. */
    static final Function<HttpClient, SocketAddressResolver> JDK_LOOKUPS = client ->
            new SocketAddressResolver.Async(client.getExecutor(), client.getScheduler(), client.getAddressResolutionTimeout());

    private static final Logger LOG = LoggerFactory.getLogger(LastKnownAddresses.class);

    private final String balancerName;
    private final MeterRegistry registry;
    private final Function<HttpClient, SocketAddressResolver> lookups;
    private final Map<String, List<InetAddress>> lastResolved = new ConcurrentHashMap<>();
    private final Set<String> fallingBack = ConcurrentHashMap.newKeySet();

    /**
     * @param lookups the resolver that looks names up for a client, created when the client first connects (it is
     *     started then); {@link #JDK_LOOKUPS} but in tests
     */
    LastKnownAddresses(String balancerName, MeterRegistry registry, Function<HttpClient, SocketAddressResolver> lookups) {
        this.balancerName = balancerName;
        this.registry = registry;
        this.lookups = lookups;
    }

    /** The resolver for {@code client}; set it before the client starts ({@link HttpClient#setSocketAddressResolver}). */
    SocketAddressResolver resolverFor(HttpClient client) {
        return new SocketAddressResolver() {
            private volatile SocketAddressResolver lookup;

            @Override
            public void resolve(String host, int port, Map<String, Object> context, Promise<List<InetSocketAddress>> promise) {
                SocketAddressResolver l = lookup;
                if (l == null) {
                    l = lookups.apply(client);
                    lookup = l; // two first connections may each create one: both are equivalent
                }
                l.resolve(host, port, context, new Promise<>() {
                    @Override
                    public void succeeded(List<InetSocketAddress> addresses) {
                        resolved(host, addresses);
                        promise.succeeded(addresses);
                    }

                    @Override
                    public void failed(Throwable failure) {
                        List<InetAddress> known = lastResolved.get(host);
                        if (known == null) {
                            promise.failed(failure);
                        } else {
                            fellBack(host, known, failure);
                            promise.succeeded(known.stream().map(address -> new InetSocketAddress(address, port)).toList());
                        }
                    }
                });
            }
        };
    }

    private void resolved(String host, List<InetSocketAddress> addresses) {
        if (addresses.isEmpty() || isLiteral(host)) {
            return;
        }
        lastResolved.put(host, addresses.stream().map(InetSocketAddress::getAddress).toList());
        if (fallingBack.remove(host)) {
            LOG.info("{}: {} resolves again, to {}", balancerName, host, addresses);
        }
    }

    private void fellBack(String host, List<InetAddress> known, Throwable failure) {
        Counter.builder("cohort.balancer.resolution.fallbacks")
                .description("connections to a member made to the address its host name last resolved to, because resolving it failed")
                .tag("host", host).register(registry).increment();
        if (fallingBack.add(host)) {
            LOG.warn("{}: resolving {} failed ({}); connecting to the address it last resolved to, {}, until it resolves "
                    + "again (further fallbacks are counted in cohort_balancer_resolution_fallbacks_total)",
                    balancerName, host, failure.toString(), known);
        }
    }

    private static boolean isLiteral(String host) {
        return host.indexOf(':') >= 0 || host.chars().allMatch(c -> c == '.' || Character.isDigit(c));
    }
}
