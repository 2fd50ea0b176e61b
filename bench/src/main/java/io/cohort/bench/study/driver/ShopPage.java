package io.cohort.bench.study.driver;

import java.math.BigDecimal;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A page of the JPetStore shop as the driver received it (after redirects), and what the scenario reads from
 * it: whether the customer is signed on, the anti-forgery token, links, prices, cart lines and a form's hidden
 * fields. The markup it reads is the shop's own (jpetstore-app's JSPs): {@code id="sign-off"} in the header of a
 * signed-on page, {@code <meta name="csrf-token">}, {@code id="price"}, {@code id="total"}, the cart's
 * {@code name="quantity-<item>"} inputs, the {@code order-lines} table and {@code <input type="hidden">} fields
 * (the confirmation's order token and fingerprint).
 *
 * @param status the final HTTP status
 * @param body   the HTML
 * @param uri    the address it finally came from
 */
record ShopPage(int status, String body, URI uri) {

    private static final Pattern TOKEN = Pattern.compile("<meta name=\"csrf-token\" content=\"([^\"]+)\">");
    private static final Pattern PRODUCT_LINK = Pattern.compile("/product\\?id=([A-Za-z0-9_-]+)\"");
    private static final Pattern ITEM_LINK = Pattern.compile("/item\\?id=([A-Za-z0-9_-]+)\"");
    private static final Pattern CART_QUANTITY = Pattern.compile("name=\"quantity-([^\"]+)\"\\s+value=\"(\\d+)\"");
    private static final Pattern ROW = Pattern.compile("<tr[^>]*>(.*?)</tr>", Pattern.DOTALL);
    private static final Pattern CELL = Pattern.compile("<td[^>]*>(.*?)</td>", Pattern.DOTALL);
    private static final Pattern HIDDEN_INPUT = Pattern.compile("<input\\b[^>]*\\btype=\"hidden\"[^>]*>");
    private static final Pattern NAME = Pattern.compile("\\bname=\"([^\"]*)\"");
    private static final Pattern VALUE = Pattern.compile("\\bvalue=\"([^\"]*)\"");

    /** Signed on: the header offers "Sign off". */
    boolean signedOn() {
        return body.contains("id=\"sign-off\"");
    }

    /** Signed off: the header offers "Sign on". */
    boolean signedOff() {
        return body.contains("id=\"sign-on\"");
    }

    /** The path without the shop's context path, e.g. {@code /checkout/confirm}. */
    String path() {
        String path = uri.getPath();
        int shop = path.indexOf("/", 1);
        return shop < 0 ? path : path.substring(shop);
    }

    Optional<String> csrfToken() {
        Matcher m = TOKEN.matcher(body);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /**
     * The products linked from the page's main content (a search result page: its products), in page order; the
     * header and footer (e.g. "Last viewed") are not the page's results.
     */
    List<String> productLinks() {
        return distinct(PRODUCT_LINK, mainContent());
    }

    /** The items linked from the page's main content (a product page: its items), in page order. */
    List<String> itemLinks() {
        return distinct(ITEM_LINK, mainContent());
    }

    /** The {@code <main>} element of the shop's layout, or the whole body of a page without one. */
    private String mainContent() {
        int start = body.indexOf("<main");
        int end = body.indexOf("</main>", Math.max(start, 0));
        return start < 0 || end < 0 ? body : body.substring(start, end);
    }

    /** The amount shown in the element with this id, e.g. {@code $1,234.50} → 1234.50. */
    Optional<BigDecimal> amount(String id) {
        Matcher m = Pattern.compile("id=\"" + Pattern.quote(id) + "\"[^>]*>([^<]*)<").matcher(body);
        if (!m.find()) {
            return Optional.empty();
        }
        String digits = m.group(1).replaceAll("[^0-9.\\-]", "");
        try {
            return Optional.of(new BigDecimal(digits));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The cart page's lines: item → quantity (empty for an empty cart). */
    Map<String, Integer> cartQuantities() {
        Map<String, Integer> lines = new LinkedHashMap<>();
        Matcher m = CART_QUANTITY.matcher(body);
        while (m.find()) {
            lines.merge(m.group(1), Integer.parseInt(m.group(2)), Integer::sum);
        }
        return lines;
    }

    /**
     * The lines of the {@code order-lines} table (checkout confirmation and placed order): item → quantity.
     * Both tables end with item, description, price, quantity, total.
     */
    Map<String, Integer> orderLines() {
        Map<String, Integer> lines = new LinkedHashMap<>();
        int table = body.indexOf("id=\"order-lines\"");
        if (table < 0) {
            return lines;
        }
        int bodyStart = body.indexOf("<tbody>", table);
        int bodyEnd = body.indexOf("</tbody>", table);
        if (bodyStart < 0 || bodyEnd < bodyStart) {
            return lines;
        }
        Matcher rows = ROW.matcher(body.substring(bodyStart, bodyEnd));
        while (rows.find()) {
            List<String> cells = new ArrayList<>();
            Matcher cell = CELL.matcher(rows.group(1));
            while (cell.find()) {
                cells.add(cell.group(1).replaceAll("<[^>]+>", "").strip());
            }
            if (cells.size() >= 5) {
                try {
                    lines.merge(cells.get(cells.size() - 5), Integer.parseInt(cells.get(cells.size() - 2)),
                            Integer::sum);
                } catch (NumberFormatException e) {
                    lines.merge("?unreadable line?", 1, Integer::sum);
                }
            }
        }
        return lines;
    }

    /**
     * The hidden fields of the first form posting to {@code path} (e.g. {@code /checkout/confirm}), as name/value
     * pairs for {@link ShopBrowser#post}, without the anti-forgery token (the browser adds its own); none if the page
     * has no such form.
     */
    String[] hiddenFields(String path) {
        Matcher form = Pattern.compile("<form\\b[^>]*\\baction=\"[^\"]*" + Pattern.quote(path) + "\"[^>]*>(.*?)</form>",
                Pattern.DOTALL).matcher(body);
        List<String> fields = new ArrayList<>();
        if (form.find()) {
            Matcher input = HIDDEN_INPUT.matcher(form.group(1));
            while (input.find()) {
                Matcher name = NAME.matcher(input.group());
                Matcher value = VALUE.matcher(input.group());
                if (name.find() && !name.group(1).equals("_csrf")) {
                    fields.add(unescape(name.group(1)));
                    fields.add(value.find() ? unescape(value.group(1)) : "");
                }
            }
        }
        return fields.toArray(String[]::new);
    }

    private static String unescape(String html) {
        return html.replace("&#039;", "'").replace("&#39;", "'").replace("&quot;", "\"").replace("&lt;", "<")
                .replace("&gt;", ">").replace("&amp;", "&");
    }

    private static List<String> distinct(Pattern link, String html) {
        LinkedHashSet<String> found = new LinkedHashSet<>();
        Matcher m = link.matcher(html);
        while (m.find()) {
            found.add(m.group(1));
        }
        return List.copyOf(found);
    }

    @Override
    public String toString() {
        return status + " " + uri;
    }
}
