package io.cohort.jpetstore.web;

import io.cohort.jpetstore.model.ProductSummary;
import io.cohort.jpetstore.model.SearchResults;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Keyword search. {@code /search?keywords=...} searches and keeps the results in the session;
 * {@code /search?page=N} pages through the kept results without searching again.
 */
public final class SearchServlet extends ShopServlet {
    static final int MAX_KEYWORDS_LENGTH = 100;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        Optional<String> keywords = RequestParameters.optional(request, "keywords");
        int page = RequestParameters.positiveInt(request, "page", 1);
        SearchResults results;
        if (keywords.isPresent()) {
            if (keywords.get().length() > MAX_KEYWORDS_LENGTH) {
                throw ClientErrorException.badRequest("Please search for at most " + MAX_KEYWORDS_LENGTH
                        + " characters.");
            }
            results = search(request, keywords.get());
        } else if (request.getParameter("keywords") != null) {
            request.setAttribute("message", "Please type a word to search for, like \"fish\".");
            Pages.render(request, response, "search");
            return;
        } else {
            Optional<SearchResults> kept = ShopSession.of(request).searchResults();
            if (kept.isEmpty()) {
                Pages.redirect(request, response, "/");
                return;
            }
            results = kept.get();
        }
        if (page > results.pageCount()) {
            throw ClientErrorException.badRequest("There is no page " + page + " of these results.");
        }
        request.setAttribute("results", results);
        request.setAttribute("page", page);
        request.setAttribute("pageProducts", results.page(page));
        Pages.render(request, response, "search");
    }

    private static SearchResults search(HttpServletRequest request, String keywords) {
        List<ProductSummary> found = Shop.of(request).search().search(keywords, SearchResults.MAX_RESULTS + 1);
        boolean truncated = found.size() > SearchResults.MAX_RESULTS;
        SearchResults results = new SearchResults(keywords,
                truncated ? found.subList(0, SearchResults.MAX_RESULTS) : found, truncated);
        ShopSession.of(request).saveSearchResults(results);
        return results;
    }
}
