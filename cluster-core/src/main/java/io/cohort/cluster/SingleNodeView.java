package io.cohort.cluster;

import java.util.List;
import java.util.function.Consumer;

/** The cluster view of a node without replication: itself, forever. */
public final class SingleNodeView implements ClusterView {

    private final Member self;

    public SingleNodeView(Member self) {
        this.self = self;
    }

    @Override
    public Member self() {
        return self;
    }

    @Override
    public List<Member> members() {
        return List.of(self);
    }

    @Override
    public AutoCloseable onChange(Consumer<List<Member>> listener) {
        return () -> { };
    }
}
