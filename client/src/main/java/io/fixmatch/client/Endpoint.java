package io.fixmatch.client;

import picocli.CommandLine.Option;

/** Where the server is: the options every client program takes. */
final class Endpoint {
    @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "HOST",
        description = "the server's host (default: ${DEFAULT-VALUE})")
    String host;

    @Option(names = "--port", defaultValue = "9878", paramLabel = "PORT",
        description = "the server's FIX port (default: ${DEFAULT-VALUE})")
    int port;
}
