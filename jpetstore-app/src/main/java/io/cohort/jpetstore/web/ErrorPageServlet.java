package io.cohort.jpetstore.web;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The location of web.xml's error pages: renders error.jsp through {@link Pages}, so that its header shows who is
 * signed on, their cart and a working sign-off button, like every other page (a JSP as the location rendered the
 * header as if nobody were signed on). Whatever the method of the failed request; called directly, a 404.
 */
public final class ErrorPageServlet extends HttpServlet {
    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        if (request.getDispatcherType() != DispatcherType.ERROR) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        Pages.renderError(request, response);
    }
}
