package io.cohort.balancer;

import io.cohort.config.BalancerConfig;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

/**
 * What a request says about its session's whereabouts: the owner's route, from the suffix of the
 * session id ({@code <id>.<route>}) in the session cookie or, failing that, in a
 * {@code ;jsessionid=} path parameter; and the backup holders' routes from the
 * {@link BalancerConfig#BACKUP_COOKIE} cookie ({@code n2.n3}, in preference order).
 *
 * @param owner   the owner's route, or null when the request carries no session id with a route
 * @param backups the backup cookie's value, or null when absent
 */
record SessionRoute(String owner, String backups) {

    static final SessionRoute NONE = new SessionRoute(null, null);
    private static final String PATH_PARAMETER = "jsessionid=";

    /** Reads the request's cookies and path; allocates only the strings it returns. */
    static SessionRoute of(Request request, String sessionCookie) {
        String owner = null;
        String backups = null;
        for (HttpField field : request.getHeaders()) {
            if (field.getHeader() != HttpHeader.COOKIE) {
                continue;
            }
            String cookies = field.getValue();
            if (owner == null) {
                owner = route(cookieValue(cookies, sessionCookie));
            }
            if (backups == null) {
                backups = cookieValue(cookies, BalancerConfig.BACKUP_COOKIE);
            }
        }
        if (owner == null) {
            owner = routeInPathParameters(request.getHttpURI().getParam());
        }
        return owner == null && backups == null ? NONE : new SessionRoute(owner, backups);
    }

    /**
     * The route of the session id in a {@code jsessionid=} path parameter among the last segment's parameters
     * ({@code a=1;jsessionid=abc.n1;b=2}), or null when there is none.
     */
    static String routeInPathParameters(String parameters) {
        if (parameters == null) {
            return null;
        }
        for (String parameter : parameters.split(";")) {
            if (parameter.regionMatches(true, 0, PATH_PARAMETER, 0, PATH_PARAMETER.length())) {
                return route(parameter.substring(PATH_PARAMETER.length()));
            }
        }
        return null;
    }

    /** The route suffix of a session id, or null when it has none. */
    static String route(String sessionId) {
        if (sessionId == null) {
            return null;
        }
        int dot = sessionId.lastIndexOf('.');
        return dot < 0 || dot == sessionId.length() - 1 ? null : sessionId.substring(dot + 1);
    }

    /** The value of the first cookie called {@code name} in a Cookie header, unquoted; null if absent. */
    static String cookieValue(String header, String name) {
        int length = header.length();
        int i = 0;
        while (i < length) {
            while (i < length && (header.charAt(i) == ' ' || header.charAt(i) == ';' || header.charAt(i) == ',')) {
                i++;
            }
            int end = header.indexOf(';', i);
            if (end < 0) {
                end = length;
            }
            if (header.startsWith(name, i) && i + name.length() < end && header.charAt(i + name.length()) == '=') {
                int from = i + name.length() + 1;
                int to = end;
                while (to > from && header.charAt(to - 1) == ' ') {
                    to--;
                }
                if (to - from >= 2 && header.charAt(from) == '"' && header.charAt(to - 1) == '"') {
                    from++;
                    to--;
                }
                return header.substring(from, to);
            }
            i = end + 1;
        }
        return null;
    }
}
