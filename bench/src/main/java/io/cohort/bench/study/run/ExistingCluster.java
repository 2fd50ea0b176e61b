package io.cohort.bench.study.run;

import io.cohort.bench.sut.NodeProbe;
import io.cohort.bench.sut.SystemUnderTest;
import java.net.URI;
import java.util.Optional;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.IntStream;

/**
 * A cluster that runs already (started by someone else, maybe on other machines): the bench only loads it
 * through the given balancers and samples the given {@code /metrics} addresses (CPU from each node's
 * {@code process_cpu_usage}). It cannot kill a node and stops nothing.
 *
 * @param shops    the shop through each balancer
 * @param metrics  each node's {@code /metrics}, named node1..nodeN
 */
public record ExistingCluster(List<URI> shops, List<URI> metrics) implements SystemUnderTest {

    public ExistingCluster {
        shops = List.copyOf(shops);
        metrics = List.copyOf(metrics);
    }

    @Override
    public List<NodeProbe> nodes() {
        return IntStream.range(0, metrics.size())
                .mapToObj(k -> new NodeProbe("node" + (k + 1), OptionalLong.empty(), Optional.of(metrics.get(k)))).toList();
    }

    @Override
    public String description() {
        return "existing cluster behind " + shops;
    }

    @Override
    public String killOneNode() {
        throw new UnsupportedOperationException("the bench kills nodes only of a cluster it started itself");
    }

    @Override
    public void close() {
        // not ours to stop
    }
}
