package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Reading routes from session ids and cookie headers. */
@Timeout(5)
class SessionRouteTest {

    @Test
    void theRouteIsTheSuffixAfterTheLastDot() {
        assertThat(SessionRoute.route("node0abc.n2")).isEqualTo("n2");
        assertThat(SessionRoute.route("node0abc")).isNull();
        assertThat(SessionRoute.route("node0abc.")).isNull();
        assertThat(SessionRoute.route(null)).isNull();
    }

    @Test
    void cookieValuesAreFoundAmongOthersWithSpacesAndQuotes() {
        String header = "theme=dark; JSESSIONID_OLD=x.n9;JSESSIONID=\"node0abc.n2\" ; COHORT_BACKUP=n3.n1";

        assertThat(SessionRoute.cookieValue(header, "JSESSIONID")).isEqualTo("node0abc.n2");
        assertThat(SessionRoute.cookieValue(header, "COHORT_BACKUP")).isEqualTo("n3.n1");
        assertThat(SessionRoute.cookieValue(header, "SESSION")).isNull();
        assertThat(SessionRoute.cookieValue("JSESSIONID=", "JSESSIONID")).isEmpty();
    }

    @Test
    void theSessionIdIsFoundAmongOtherPathParameters() {
        assertThat(SessionRoute.routeInPathParameters("jsessionid=node0abc.n2")).isEqualTo("n2");
        assertThat(SessionRoute.routeInPathParameters("jsessionid=node0abc.n2;x=y")).isEqualTo("n2");
        assertThat(SessionRoute.routeInPathParameters("x=y;JSESSIONID=node0abc.n2")).isEqualTo("n2");
        assertThat(SessionRoute.routeInPathParameters("x=y")).isNull();
        assertThat(SessionRoute.routeInPathParameters(null)).isNull();
    }

    @Test
    void theRouteOfTheFirstSessionCookieThatNamesAMemberIsTheOwner() {
        java.util.Set<String> members = java.util.Set.of("n1", "n2");
        String header = "JSESSIONID=3f9a; JSESSIONID=old.n9; theme=dark; JSESSIONID=\"node0abc.n2\"; JSESSIONID=x.n1";

        assertThat(SessionRoute.memberRoute(header, "JSESSIONID", members::contains)).isEqualTo("n2");
        assertThat(SessionRoute.memberRoute("JSESSIONID=old.n9; JSESSIONID=a.", "JSESSIONID", members::contains))
                .isNull();
        assertThat(SessionRoute.cookieValue(header, "JSESSIONID")).as("the first, as before").isEqualTo("3f9a");
    }
}
