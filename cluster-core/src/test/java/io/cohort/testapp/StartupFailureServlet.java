package io.cohort.testapp;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;

/** Test application servlet, loaded at start by a WAR that must fail to start: its init always throws. */
public class StartupFailureServlet extends HttpServlet {

    @Override
    public void init() throws ServletException {
        throw new ServletException("this version cannot start");
    }
}
