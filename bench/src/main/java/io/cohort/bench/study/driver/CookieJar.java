package io.cohort.bench.study.driver;

import java.net.HttpCookie;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cookies of one virtual user (its {@code JSESSIONID}, {@code COHORT_BACKUP}, ...), so that each user has
 * a session of its own while all users share one HTTP client. All cookies come from the one shop the user
 * visits, so domain and path are not told apart. Not thread-safe: a user has one page in flight at a time.
 */
final class CookieJar {

    private final Map<String, String> cookies = new LinkedHashMap<>();

    /** Takes the {@code Set-Cookie} headers of a response: new values replace old ones, expired cookies go. */
    void accept(List<String> setCookieHeaders) {
        for (String header : setCookieHeaders) {
            List<HttpCookie> parsed;
            try {
                parsed = HttpCookie.parse(header);
            } catch (IllegalArgumentException malformed) {
                continue; // a browser ignores a cookie it cannot read; so do we
            }
            for (HttpCookie cookie : parsed) {
                if (cookie.getMaxAge() == 0) {
                    cookies.remove(cookie.getName());
                } else {
                    cookies.put(cookie.getName(), cookie.getValue());
                }
            }
        }
    }

    /** The {@code Cookie} request header, or null when the jar is empty. */
    String header() {
        if (cookies.isEmpty()) {
            return null;
        }
        StringBuilder header = new StringBuilder();
        cookies.forEach((name, value) -> {
            if (!header.isEmpty()) {
                header.append("; ");
            }
            header.append(name).append('=').append(value);
        });
        return header.toString();
    }

    String value(String name) {
        return cookies.get(name);
    }

    void clear() {
        cookies.clear();
    }
}
