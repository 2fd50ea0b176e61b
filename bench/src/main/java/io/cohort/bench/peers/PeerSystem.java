package io.cohort.bench.peers;

import io.cohort.bench.sut.NodeProbe;
import io.cohort.bench.sut.SystemUnderTest;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * What the peer baselines' systems share: one front door ({@link FrontDoor}) in front of backend node
 * processes ({@link BackendNode}). The bench loads the shop through the front, samples each node by its pid
 * (and its metrics where it has them), and kills the first node for a failover experiment. {@link #close}
 * stops the front, then the nodes ({@link #stopNodes}); it is idempotent and never throws.
 */
public abstract class PeerSystem implements SystemUnderTest {

    private final String description;
    private final FrontDoor front;
    private final List<BackendNode> backends;

    protected PeerSystem(String description, FrontDoor front, List<BackendNode> backends) {
        this.description = Objects.requireNonNull(description, "description");
        this.front = Objects.requireNonNull(front, "front");
        this.backends = List.copyOf(backends);
    }

    @Override
    public final String description() {
        return description;
    }

    /** The front door's base URI, e.g. {@code http://127.0.0.1:8000}. */
    public final URI frontDoor() {
        return front.uri();
    }

    /** The shop through the front door. */
    public final URI shop() {
        return URI.create(frontDoor() + SHOP_PATH);
    }

    @Override
    public final List<URI> shops() {
        return List.of(shop());
    }

    /** The backend nodes, in order {@code n1..nN}. */
    public final List<BackendNode> backends() {
        return backends;
    }

    @Override
    public final List<NodeProbe> nodes() {
        return backends.stream().map(BackendNode::probe).toList();
    }

    /** SIGKILLs node {@code n1} and waits (at most 10 s) until its process is gone. */
    @Override
    public final String killOneNode() throws InterruptedException {
        BackendNode victim = backends.get(0);
        victim.kill();
        ProcessHandle.of(victim.pid()).ifPresent(p -> {
            try {
                p.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                // reported as still running by exitedNodes(); the experiment notes it
            }
        });
        return victim.name();
    }

    @Override
    public final List<String> exitedNodes() {
        return backends.stream().filter(n -> ProcessHandle.of(n.pid()).map(p -> !p.isAlive()).orElse(true))
                .map(BackendNode::name).toList();
    }

    @Override
    public final void close() {
        try {
            front.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // the nodes must stop all the same
        } finally {
            try {
                stopNodes();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Stops every node process (SIGTERM, then SIGKILL after a grace period). Idempotent. */
    protected abstract void stopNodes() throws InterruptedException;
}
