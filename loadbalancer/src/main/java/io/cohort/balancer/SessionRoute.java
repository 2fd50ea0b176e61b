package io.cohort.balancer;

import io.cohort.config.BalancerConfig;
import java.util.function.Predicate;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

/**
 * What a request says about its session's whereabouts: the owner's route, from the suffix of the
 * session id ({@code <id>.<route>}) in the session cookie or, failing that, in a
 * {@code ;jsessionid=} path parameter; and the backup holders' routes from the
 * {@link BalancerConfig#BACKUP_COOKIE} cookie ({@code n2.n3}, in preference order). A request may carry several
 * session cookies (a stale one set for the parent domain beside the host's own, sent first by the browser): the
 * owner is the route of the first one that names a live member (see {@link #of}).
 *
 * @param owner   the owner's route, or null when the request carries no session id with a route
 * @param backups the backup cookie's value, or null when absent
 */
record SessionRoute(String owner, String backups) {

    static final SessionRoute NONE = new SessionRoute(null, null);
    private static final String PATH_PARAMETER = "jsessionid=";

    /**
     * Reads the request's cookies and path; allocates little beyond the strings it returns. Of several session cookies
     * the owner is the route of the first that names a live member, else of the first that names a member (down: the
     * request fails over), else of the first with a route at all (no member's: placed by the policy).
     *
     * @param live   whether a route names a live member
     * @param member whether a route names a member
     */
    static SessionRoute of(Request request, String sessionCookie, Predicate<String> live, Predicate<String> member) {
        String liveOwner = null;
        String downOwner = null;
        String firstRoute = null;
        String backups = null;
        for (HttpField field : request.getHeaders()) {
            if (field.getHeader() != HttpHeader.COOKIE) {
                continue;
            }
            String cookies = field.getValue();
            if (liveOwner == null) {
                liveOwner = memberRoute(cookies, sessionCookie, live);
                if (liveOwner == null && downOwner == null) {
                    downOwner = memberRoute(cookies, sessionCookie, member);
                }
                if (liveOwner == null && downOwner == null && firstRoute == null) {
                    firstRoute = route(cookieValue(cookies, sessionCookie));
                }
            }
            if (backups == null) {
                backups = cookieValue(cookies, BalancerConfig.BACKUP_COOKIE);
            }
        }
        String owner = liveOwner != null ? liveOwner : downOwner != null ? downOwner : firstRoute;
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
        int[] bounds = new int[2];
        return nextCookie(header, name, 0, bounds) < 0 ? null : header.substring(bounds[0], bounds[1]);
    }

    /** The route of the first cookie called {@code name} in a Cookie header whose route names a member; else null. */
    static String memberRoute(String header, String name, Predicate<String> member) {
        int[] bounds = new int[2];
        for (int from = nextCookie(header, name, 0, bounds); from >= 0; from = nextCookie(header, name, from, bounds)) {
            int dot = header.lastIndexOf('.', bounds[1] - 1);
            if (dot >= bounds[0] && dot < bounds[1] - 1) {
                String route = header.substring(dot + 1, bounds[1]);
                if (member.test(route)) {
                    return route;
                }
            }
        }
        return null;
    }

    /**
     * Finds the next cookie called {@code name} from index {@code i} of a Cookie header, and puts where its value
     * begins and ends (unquoted) into {@code bounds}.
     *
     * @return the index to go on from, or -1 when there is none
     */
    private static int nextCookie(String header, String name, int i, int[] bounds) {
        int length = header.length();
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
                bounds[0] = from;
                bounds[1] = to;
                return end + 1;
            }
            i = end + 1;
        }
        return -1;
    }
}
