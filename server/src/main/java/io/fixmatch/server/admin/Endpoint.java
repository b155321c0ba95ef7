package io.fixmatch.server.admin;

/** One operation of the admin endpoint, run on the admin HTTP thread. */
@FunctionalInterface
interface Endpoint {
    AdminResponse handle(AdminRequest request) throws Exception;
}
