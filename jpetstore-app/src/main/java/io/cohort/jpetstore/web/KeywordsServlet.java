package io.cohort.jpetstore.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;

/**
 * {@code GET /keywords.txt}: the search keywords a load driver should pick from, one per line (UTF-8 text).
 * For the benchmark data set these are the vocabulary words in use, each naming about 100 products.
 */
public final class KeywordsServlet extends ShopServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        response.setCharacterEncoding("UTF-8");
        PrintWriter out = response.getWriter();
        for (String keyword : Shop.of(request).search().benchmarkKeywords()) {
            out.print(keyword);
            out.print('\n');
        }
    }
}
