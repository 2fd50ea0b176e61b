package io.cohort.session.jetty;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.session.serial.AllowListFilter;
import io.cohort.session.serial.SessionValueCodec;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Which attribute changes of a session's data reach the store. */
class TrackedSessionDataTest {

    private static final SessionValueCodec CODEC = new SessionValueCodec(TrackedSessionDataTest.class.getClassLoader(),
            new AllowListFilter(List.of(), 1 << 20, 50, 10_000, TrackedSessionDataTest.class.getClassLoader(), r -> { }),
            1 << 20);

    private final List<String> reported = new CopyOnWriteArrayList<>();
    private final TrackedSessionData data = new TrackedSessionData((session, name) -> reported.add(name), CODEC, true,
            "s1", "/app", "0.0.0.0", 1L, 1L, 1L, 60_000L);

    @Test
    void aChangeIsReported() {
        data.setAttribute("cart", "EST-1");

        assertThat(reported).containsExactly("cart");
    }

    @Test
    void aChangeThroughAReferenceKeptAfterTheSessionLeftThisCacheIsNotReported() {
        // taken over by another node, or handed to a redeploy's new version: a background thread of the old version
        // that kept the session must not make this node send it again (its copy would overwrite the new owner's)
        data.markEvicted();

        data.setAttribute("cart", "EST-2");

        assertThat(reported).isEmpty();
    }
}
