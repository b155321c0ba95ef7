package io.fixmatch.fix.transport;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

import javax.net.ssl.KeyManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;

/**
 * TLS on the FIX acceptor: the key store holding the server's private key and certificate chain, its password and
 * type, and the protocol versions offered. The JDK's TLS implementation (no native library).
 *
 * @param keyStore         the key store file (PKCS12 or JKS)
 * @param keyStorePassword its password (also the key's), or null for none
 * @param keyStoreType     {@code PKCS12} or {@code JKS}
 * @param protocols        e.g. {@code TLSv1.3, TLSv1.2}
 */
public record TlsSettings(Path keyStore, String keyStorePassword, String keyStoreType, List<String> protocols) {
    public TlsSettings {
        protocols = List.copyOf(protocols);
    }

    /**
     * Loads the key store and builds the server's TLS context; fails (naming the file) if the store cannot be read,
     * the password is wrong, or it holds no private key.
     */
    public SslContext serverContext() {
        char[] password = keyStorePassword == null ? new char[0] : keyStorePassword.toCharArray();
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore store = KeyStore.getInstance(keyStoreType);
            store.load(in, password);
            boolean hasKey = false;
            for (String alias : java.util.Collections.list(store.aliases())) {
                hasKey |= store.isKeyEntry(alias);
            }
            if (!hasKey) {
                throw new IllegalArgumentException("TLS key store " + keyStore + " holds no private key");
            }
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, password);
            return SslContextBuilder.forServer(keys)
                .sslProvider(SslProvider.JDK)
                .protocols(protocols)
                .clientAuth(ClientAuth.NONE)
                .build();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot use TLS key store " + keyStore + ": " + e.getMessage(), e);
        }
    }
}
