package io.cohort.bench.jmeter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cohort.bench.jmeter.JtlResults.Sample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JtlResultsTest {

    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,"
            + "success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect\n";

    @TempDir
    Path dir;

    @Test
    void redirectSubSamplesAreCountedAsPartOfTheirPage() throws IOException {
        JtlResults results = read(HEADER
                + "1,10,sign on,200,OK,t 1-1,text,true,,10,10,1,1,http://h/jpetstore/,1,0,0\n"
                + "1,4,sign on-0,302,Found,t 1-1,,true,,10,10,1,1,http://h/jpetstore/signon,1,0,0\n"
                + "1,6,sign on-1,200,OK,t 1-1,text,true,,10,10,1,1,http://h/jpetstore/,1,0,0\n"
                + "2,9,search,200,OK,t 1-1,text,true,,10,10,1,1,http://h/jpetstore/search,1,0,0\n");

        assertThat(results.samples()).hasSize(4);
        assertThat(results.countByLabel(Set.of("sign on", "search"))).isEqualTo(Map.of("sign on", 1L, "search", 1L));
        assertThat(results.failures()).isEmpty();
    }

    @Test
    void aFailedSampleKeepsItsQuotedMessageAcrossLinesAndCommas() throws IOException {
        JtlResults results = read(HEADER
                + "1,10,add to cart,200,OK,t 1-2,text,false,\"Test failed: text expected to contain /Subtotal (2 pieces)/,\n"
                + "second line\",10,10,1,1,http://h/jpetstore/cart,1,0,0\n"
                + "2,9,sign off,200,OK,t 1-2,text,true,,10,10,1,1,http://h/jpetstore/,1,0,0\n");

        assertThat(results.failures()).containsExactly(new Sample("add to cart", false, "200",
                "Test failed: text expected to contain /Subtotal (2 pieces)/,\nsecond line"));
        assertThat(results.countByLabel(Set.of("add to cart", "sign off"))).containsOnlyKeys("add to cart", "sign off");
    }

    @Test
    void aFileWithoutJMeterColumnsIsRefused() throws IOException {
        Path file = dir.resolve("other.csv");
        Files.writeString(file, "a,b\n1,2\n");

        assertThatThrownBy(() -> JtlResults.read(file)).isInstanceOf(IOException.class).hasMessageContaining("label");
    }

    private JtlResults read(String csv) throws IOException {
        Path file = dir.resolve("results.jtl");
        Files.writeString(file, csv);
        return JtlResults.read(file);
    }
}
