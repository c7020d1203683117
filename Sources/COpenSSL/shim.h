/* COpenSSL: the C headers of OpenSSL (pkg-config openssl), for TLS in the engine's http(s) media cache for Swift. A C interop module: it imports nothing of
   ours, and only GStreamerEngine's Network folder may import it (docs/ARCHITECTURE.md, "Layers"). */
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>

/* Macros Swift cannot call. */

/* SSL_set_tlsext_host_name: the server name (SNI) sent in the ClientHello. */
static inline int quaver_ssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/* A server that closes the connection without close_notify ends the body like a plain socket would
   (HTTP already says how long the body is); OpenSSL 3 would report it as an error otherwise. */
static inline void quaver_ssl_ignore_unexpected_eof(SSL_CTX *context) {
    SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF);
}
