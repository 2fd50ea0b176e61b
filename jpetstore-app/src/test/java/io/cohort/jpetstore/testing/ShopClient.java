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
 * like a browser, and posts forms with the anti-forgery token of the last page that carried one and, as a browser
 * submitting the form it shows, the hidden fields of the last page's form to that address.
 */
public final class ShopClient {
    private static final Pattern TOKEN = Pattern.compile("<meta name=\"csrf-token\" content=\"([^\"]+)\">");
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final ShopHost server;
    private final HttpClient http;
    private String token = "";
    private Page last;

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

    /**
     * Posts a form of name/value pairs with the current anti-forgery token and, if the last page holds exactly one
     * form posting to {@code path}, that form's other hidden fields (e.g. the confirmation's order token) unless
     * given here.
     */
    public Page post(String path, String... namesAndValues) {
        List<String> fields = new ArrayList<>(List.of(namesAndValues));
        if (last != null) {
            String[] hidden = last.hiddenFieldsIfOneForm(path);
            for (int i = 0; i < hidden.length; i += 2) {
                if (!hidden[i].equals("_csrf") && !given(namesAndValues, hidden[i])) {
                    fields.add(hidden[i]);
                    fields.add(hidden[i + 1]);
                }
            }
        }
        fields.add("_csrf");
        fields.add(token);
        return postRaw(path, fields.toArray(String[]::new));
    }

    private static boolean given(String[] namesAndValues, String name) {
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (namesAndValues[i].equals(name)) {
                return true;
            }
        }
        return false;
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
            last = page;
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
            return unescape(body.substring(from, end).replaceAll("<[^>]+>", " ").replaceAll("\\s+", " ").strip());
        }

        /**
         * The hidden fields (anti-forgery token included) of the page's form that posts to {@code path}, as
         * name/value pairs for {@link ShopClient#postRaw}: what submitting that form sends, e.g. again later.
         */
        public String[] hiddenFields(String path) {
            List<String> forms = formsPostingTo(path);
            if (forms.size() != 1) {
                throw new AssertionError(forms.size() + " forms post to " + path + " on " + uri + ":\n" + body);
            }
            return hiddenInputs(forms.get(0));
        }

        String[] hiddenFieldsIfOneForm(String path) {
            List<String> forms = formsPostingTo(path);
            return forms.size() == 1 ? hiddenInputs(forms.get(0)) : new String[0];
        }

        private List<String> formsPostingTo(String path) {
            Pattern form = Pattern.compile("<form\\b[^>]*\\baction=\"" + Pattern.quote(ShopHost.CONTEXT_PATH + path)
                    + "\"[^>]*>(.*?)</form>", Pattern.DOTALL);
            List<String> found = new ArrayList<>();
            Matcher m = form.matcher(body);
            while (m.find()) {
                found.add(m.group(1));
            }
            return found;
        }

        private static String[] hiddenInputs(String form) {
            List<String> fields = new ArrayList<>();
            Matcher input = Pattern.compile("<input\\b[^>]*\\btype=\"hidden\"[^>]*>").matcher(form);
            while (input.find()) {
                Matcher name = Pattern.compile("\\bname=\"([^\"]*)\"").matcher(input.group());
                Matcher value = Pattern.compile("\\bvalue=\"([^\"]*)\"").matcher(input.group());
                if (name.find()) {
                    fields.add(unescape(name.group(1)));
                    fields.add(value.find() ? unescape(value.group(1)) : "");
                }
            }
            return fields.toArray(String[]::new);
        }

        private static String unescape(String text) {
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
