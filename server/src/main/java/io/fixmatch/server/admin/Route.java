package io.fixmatch.server.admin;

import java.util.regex.Pattern;

/** A method and a path pattern (its groups are the path's variable segments), and the endpoint that serves them. */
record Route(String method, Pattern path, Endpoint endpoint, boolean open) {

    /** A route that requires the token, when one is configured. */
    static Route of(String method, String pathRegex, Endpoint endpoint) {
        return new Route(method, Pattern.compile(pathRegex), endpoint, false);
    }

    /** A route anyone may call, token or not (the health check: container runtimes send no token). */
    static Route open(String method, String pathRegex, Endpoint endpoint) {
        return new Route(method, Pattern.compile(pathRegex), endpoint, true);
    }
}
