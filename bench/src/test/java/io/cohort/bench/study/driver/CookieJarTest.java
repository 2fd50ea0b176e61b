package io.cohort.bench.study.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CookieJarTest {

    @Test
    void keepsTheLatestValueOfEachCookieAndDropsExpiredOnes() {
        CookieJar jar = new CookieJar();
        assertThat(jar.header()).isNull();

        jar.accept(List.of("JSESSIONID=abc.n1; Path=/jpetstore; HttpOnly", "COHORT_BACKUP=n2; Path=/"));
        jar.accept(List.of("JSESSIONID=def.n1; Path=/jpetstore; HttpOnly"));
        assertThat(jar.header()).isEqualTo("JSESSIONID=def.n1; COHORT_BACKUP=n2");

        jar.accept(List.of("COHORT_BACKUP=; Max-Age=0; Path=/"));
        assertThat(jar.header()).isEqualTo("JSESSIONID=def.n1");
        jar.clear();
        assertThat(jar.header()).isNull();
    }

    @Test
    void eachJarIsItsOwnUser() {
        CookieJar alice = new CookieJar();
        CookieJar bob = new CookieJar();
        alice.accept(List.of("JSESSIONID=alice"));
        bob.accept(List.of("JSESSIONID=bob"));

        assertThat(alice.value("JSESSIONID")).isEqualTo("alice");
        assertThat(bob.value("JSESSIONID")).isEqualTo("bob");
    }
}
