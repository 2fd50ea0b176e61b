package io.cohort.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Durations and sizes take units; KB is 1000 bytes, KiB 1024. */
class ValueSyntaxTest {

    @Test
    void durationsTakeMillisecondsSecondsMinutesOrHours() {
        assertThat(ConfigDuration.parse("1000ms")).isEqualTo(Duration.ofSeconds(1));
        assertThat(ConfigDuration.parse("2s")).isEqualTo(Duration.ofSeconds(2));
        assertThat(ConfigDuration.parse("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(ConfigDuration.parse("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(ConfigDuration.parse("0s")).isEqualTo(Duration.ZERO);
    }

    @Test
    void durationsWithoutAUnitOrWithSpacesOrFractionsAreRefused() {
        for (String bad : new String[] {"1000", "2 s", "1.5s", "2sec", "-1s", "s", "", "1d"}) {
            assertThatIllegalArgumentException().as(bad).isThrownBy(() -> ConfigDuration.parse(bad));
        }
        assertThatIllegalArgumentException().isThrownBy(() -> ConfigDuration.parse("9999999999999999999h"));
    }

    @Test
    void durationsFormatInTheLargestExactUnit() {
        assertThat(ConfigDuration.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(ConfigDuration.format(Duration.ofSeconds(120))).isEqualTo("2m");
        assertThat(ConfigDuration.format(Duration.ofHours(3))).isEqualTo("3h");
        assertThat(ConfigDuration.format(Duration.ZERO)).isEqualTo("0ms");
    }

    @Test
    void sizesUseDecimalAndBinaryUnits() {
        assertThat(DataSize.parse("1MB").bytes()).isEqualTo(1_000_000);
        assertThat(DataSize.parse("1MiB").bytes()).isEqualTo(1_048_576);
        assertThat(DataSize.parse("512KiB").bytes()).isEqualTo(524_288);
        assertThat(DataSize.parse("3KB").bytes()).isEqualTo(3_000);
        assertThat(DataSize.parse("2GiB").bytes()).isEqualTo(2L << 30);
        assertThat(DataSize.parse("7B").bytes()).isEqualTo(7);
    }

    @Test
    void sizesWithoutAUnitOrWithAWrongOneAreRefused() {
        for (String bad : new String[] {"1024", "1 MB", "1mb", "1.5MB", "1TB", "-1B", "MB"}) {
            assertThatIllegalArgumentException().as(bad).isThrownBy(() -> DataSize.parse(bad));
        }
        assertThatIllegalArgumentException().isThrownBy(() -> DataSize.parse("999999999999999999GB"));
    }

    @Test
    void sizesPrintInTheLargestExactUnitAndParseBack() {
        assertThat(DataSize.parse("1MB")).hasToString("1MB");
        assertThat(DataSize.parse("1024KiB")).hasToString("1MiB");
        assertThat(DataSize.parse("1500KB")).hasToString("1500KB");
        assertThat(DataSize.ofBytes(0)).hasToString("0B");
        for (String text : new String[] {"1MB", "1MiB", "1536KiB", "7B", "3GB"}) {
            assertThat(DataSize.parse(DataSize.parse(text).toString())).isEqualTo(DataSize.parse(text));
        }
    }

    @Test
    void enumsRoundTripTheirXmlNames() {
        for (Trigger t : Trigger.values()) {
            assertThat(Trigger.fromXml(t.xmlName())).isSameAs(t);
        }
        for (Scope s : Scope.values()) {
            assertThat(Scope.fromXml(s.xmlName())).isSameAs(s);
        }
        for (Discovery d : Discovery.values()) {
            assertThat(Discovery.fromXml(d.xmlName())).isSameAs(d);
        }
        assertThat(Trigger.ON_REQUEST_END.xmlName()).isEqualTo("onRequestEnd");
        assertThatIllegalArgumentException().isThrownBy(() -> Scope.fromXml("ALL_ATTRIBUTES"));
    }
}
