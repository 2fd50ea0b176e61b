package io.cohort.jpetstore.testing;

import java.io.IOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One visitor of the shop: an HttpClient with its own cookies (so its own session) that follows redirects
 * like a browser, and posts forms with the anti-forgery token of the last page that carried one.
 */
public final class ShopClient {
    private static final Pattern TOKEN = Pattern.compile("<meta name=\"csrf-token\" content=\"([^\"]+)\">");
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final ShopHost server;
    private final HttpClient http;
    private String token = "";

    public ShopClient(ShopHost server) {
        this(server, new CookieManager(null, CookiePolicy.ACCEPT_ALL));
    }

    /** A visitor whose cookies the caller can read (e.g. to replay an old session cookie elsewhere). */
    public ShopClient(ShopHost server, CookieManager cookies) {
        this.server = server;
        this.http = HttpClient.newBuilder()
                .cookieHandler(cookies)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    public Page get(String pathAndQuery) {
        return send(HttpRequest.newBuilder(server.uri(pathAndQuery)).GET());
    }

    /** Posts a form of name/value pairs with the current anti-forgery token. */
    public Page post(String path, String... namesAndValues) {
        List<String> fields = new ArrayList<>(List.of(namesAndValues));
        fields.add("_csrf");
        fields.add(token);
        return postRaw(path, fields.toArray(String[]::new));
    }

    /** Posts exactly the given fields, without adding a token. */
    public Page postRaw(String path, String... namesAndValues) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (body.length() > 0) {
                body.append('&');
            }
            body.append(URLEncoder.encode(namesAndValues[i], StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(namesAndValues[i + 1], StandardCharsets.UTF_8));
        }
        return send(HttpRequest.newBuilder(server.uri(path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())));
    }

    /** The anti-forgery token of the last page that had one. */
    public String token() {
        return token;
    }

    public Page signOn(String username, String password) {
        get("/signon");
        return post("/signon", "username", username, "password", password);
    }

    private Page send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.timeout(TIMEOUT).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            Page page = new Page(response.statusCode(), response.body(), response.uri(),
                    response.headers().firstValue("Content-Type").orElse(""), response.headers());
            Matcher m = TOKEN.matcher(page.body());
            if (m.find()) {
                token = m.group(1);
            }
            return page;
        } catch (IOException e) {
            throw new IllegalStateException("request failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** A response after redirects: status, HTML, the address it finally came from, and its headers. */
    public record Page(int status, String body, URI uri, String contentType, java.net.http.HttpHeaders headers) {

        /** The first value of a response header, or "" (e.g. the balancer's {@code X-Cohort-Routed}). */
        public String header(String name) {
            return headers.firstValue(name).orElse("");
        }

        public String path() {
            String p = uri.getPath();
            return p.startsWith(ShopHost.CONTEXT_PATH) ? p.substring(ShopHost.CONTEXT_PATH.length()) : p;
        }

        /** The text of the element with this id: its content with tags stripped, entities decoded, spaces collapsed. */
        public String textOf(String id) {
            Matcher open = Pattern.compile("<(\\w+)[^>]*\\sid=\"" + Pattern.quote(id) + "\"[^>]*>").matcher(body);
            if (!open.find()) {
                throw new AssertionError("no element with id '" + id + "' on " + uri + ":\n" + body);
            }
            Matcher tags = Pattern.compile("<(/?)" + open.group(1) + "\\b[^>]*>").matcher(body);
            int depth = 1;
            int from = open.end();
            int end = body.length();
            tags.region(from, body.length());
            while (tags.find()) {
                depth += tags.group(1).isEmpty() ? 1 : -1;
                if (depth == 0) {
                    end = tags.start();
                    break;
                }
            }
            String text = body.substring(from, end).replaceAll("<[^>]+>", " ").replaceAll("\\s+", " ").strip();
            return text.replace("&#039;", "'").replace("&#39;", "'").replace("&quot;", "\"").replace("&lt;", "<")
                    .replace("&gt;", ">").replace("&amp;", "&");
        }

        /** Every match of group 1 of a pattern. */
        public List<String> all(String regex) {
            List<String> found = new ArrayList<>();
            Matcher m = Pattern.compile(regex).matcher(body);
            while (m.find()) {
                found.add(m.group(1));
            }
            return found;
        }

        @Override
        public String toString() {
            return status + " " + uri;
        }
    }
}
