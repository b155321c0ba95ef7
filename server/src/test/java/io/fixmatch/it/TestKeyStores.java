package io.fixmatch.it;

import io.fixmatch.server.WaitBounds;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away TLS key pair for tests, made with the JDK's keytool: a PKCS12 key store holding a self-signed
 * certificate for 127.0.0.1/localhost (valid two days) and its key, and a PKCS12 trust store holding the
 * certificate alone. Nothing is committed: the files live in the test's temporary folder.
 */
final class TestKeyStores {
    record Pair(Path keyStore, Path trustStore) {
    }

    private TestKeyStores() {
    }

    static Pair generate(Path folder, String password) throws IOException, InterruptedException {
        Path keyStore = folder.resolve("server.p12");
        Path certificate = folder.resolve("server.cer");
        Path trustStore = folder.resolve("trust.p12");
        keytool("-genkeypair", "-alias", "fixmatch", "-keyalg", "EC", "-groupname", "secp256r1",
            "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2",
            "-storetype", "PKCS12", "-keystore", keyStore.toString(), "-storepass", password, "-keypass", password);
        keytool("-exportcert", "-alias", "fixmatch", "-keystore", keyStore.toString(), "-storepass", password,
            "-file", certificate.toString());
        keytool("-importcert", "-noprompt", "-alias", "fixmatch", "-file", certificate.toString(),
            "-storetype", "PKCS12", "-keystore", trustStore.toString(), "-storepass", password);
        return new Pair(keyStore, trustStore);
    }

    private static void keytool(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(WaitBounds.PROCESS.toMillis(), TimeUnit.MILLISECONDS) || process.exitValue() != 0) {
            throw new IOException("keytool " + arguments[0] + " failed: " + output);
        }
    }
}
