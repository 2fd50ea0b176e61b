package io.cohort.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The commands the banner suggests can be pasted into a shell as they are. */
class ClusterBannerTest {

    @Test
    void aPathWithSpacesOrQuotesIsOneShellWord() {
        assertThat(ClusterBanner.shellWord("my-work/cluster.json")).isEqualTo("my-work/cluster.json");
        assertThat(ClusterBanner.shellWord("my dir/cluster.json")).isEqualTo("'my dir/cluster.json'");
        assertThat(ClusterBanner.shellWord("it's/cluster.json")).isEqualTo("'it'\\''s/cluster.json'");
    }
}
