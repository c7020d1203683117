#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, and the CURLAUTH_ and CURL_HTTP_VERSION_ values are
   cast macros: Swift can call neither. One typed wrapper per kind of argument. */

static inline CURLcode quaver_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode quaver_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode quaver_curl_set_write_function(CURL *handle, CURLoption option,
                                                      size_t (*function)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, option, function);
}

static inline CURLcode quaver_curl_set_progress_function(CURL *handle,
                                                         int (*function)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}

static inline long quaver_curl_get_long(CURL *handle, CURLINFO info) {
    long value = 0;
    return curl_easy_getinfo(handle, info, &value) == CURLE_OK ? value : 0;
}

static inline const char *quaver_curl_get_string(CURL *handle, CURLINFO info) {
    char *value = NULL;
    return curl_easy_getinfo(handle, info, &value) == CURLE_OK ? value : NULL;
}

static inline long quaver_curl_auth_basic(void) { return (long)CURLAUTH_BASIC; }
static inline long quaver_curl_auth_digest(void) { return (long)CURLAUTH_DIGEST; }
/* HTTP/2 over TLS when the server offers it (ALPN), HTTP/1.1 otherwise and for plain http. */
static inline long quaver_curl_http2_over_tls(void) { return (long)CURL_HTTP_VERSION_2TLS; }
