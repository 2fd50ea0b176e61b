package io.cohort.testapp;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Test application servlet that tells what the request says of its client: address, scheme, secure, host and port. */
public class ClientServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        response.getWriter().print("remote=" + request.getRemoteAddr() + " scheme=" + request.getScheme()
                + " secure=" + request.isSecure() + " host=" + request.getServerName() + ":" + request.getServerPort());
    }
}
