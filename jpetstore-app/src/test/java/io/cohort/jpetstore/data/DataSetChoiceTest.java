package io.cohort.jpetstore.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class DataSetChoiceTest {
    @Test
    void standardIsTheDefault() {
        assertThat(DataSetChoice.from(name -> null)).isEqualTo(DataSetChoice.standard());
    }

    @Test
    void benchmarkTakesItsSizesOrTheDefaults() {
        assertThat(DataSetChoice.from(Map.of("jpetstore.dataset", "Benchmark")::get))
                .isEqualTo(DataSetChoice.benchmark(20_000, 50_000));
        assertThat(DataSetChoice.from(Map.of("jpetstore.dataset", "benchmark", "jpetstore.benchmark.accounts", "300",
                "jpetstore.benchmark.products", "4_000")::get)).isEqualTo(DataSetChoice.benchmark(300, 4_000));
    }

    @Test
    void wrongSettingsFailNamingTheSetting() {
        assertThatThrownBy(() -> DataSetChoice.from(Map.of("jpetstore.dataset", "huge")::get))
                .hasMessageContaining("jpetstore.dataset must be 'standard' or 'benchmark'");
        assertThatThrownBy(() -> DataSetChoice.from(Map.of("jpetstore.dataset", "benchmark",
                "jpetstore.benchmark.products", "many")::get))
                .hasMessageContaining("jpetstore.benchmark.products must be a whole number");
        assertThatThrownBy(() -> DataSetChoice.benchmark(0, 10)).hasMessageContaining("benchmark accounts must be");
    }
}
