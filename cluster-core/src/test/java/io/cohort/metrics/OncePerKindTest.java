package io.cohort.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class OncePerKindTest {

    @Test
    void theFirstOccurrenceOfEachKindIsLoggedAndNoOtherOne() {
        OncePerKind once = new OncePerKind(10);

        assertThat(once.first("a")).isTrue();
        assertThat(once.first("a")).isFalse();
        assertThat(once.first("b")).isTrue();
    }

    @Test
    void kindsChosenBySomeoneElseStopBeingLoggedAtTheLimit() {
        OncePerKind once = new OncePerKind(100);

        long logged = IntStream.range(0, 100_000).mapToObj(i -> "attribute-" + i).filter(once::first).count();

        assertThat(logged).isEqualTo(100);
        assertThat(once.first("attribute-5")).as("a kind logged before").isFalse();
    }
}
