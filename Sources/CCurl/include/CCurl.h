#ifndef QUAVER_CCURL_H
#define QUAVER_CCURL_H

/* libcurl, loaded on first use (dlopen of libcurl.so.4): a daemon that plays only local files never maps
   libcurl and the ~25 libraries it pulls in (TLS, Kerberos, LDAP, SSH, IDN …), which cost 6 MB of resident
   memory when linked. The types and constants come from curl.h; every call goes through the functions
   below, never to a curl_ symbol directly (the program is not linked against libcurl). */
/* C interop: only the RemoteMedia wrapper may import this module (docs/ARCHITECTURE.md, "Layers"). */
#include <curl/curl.h>

/* Loads libcurl and runs curl_global_init once per process (thread-safe, pthread_once; libcurl 7.84+
   built "threadsafe", as Debian's is, allows curl_global_init from any thread). 1 on success; otherwise
   quaver_curl_load_error() says why. */
int quaver_curl_load(void);
const char *quaver_curl_load_error(void);

CURL *quaver_curl_easy_init(void);
void quaver_curl_easy_cleanup(CURL *handle);
void quaver_curl_easy_reset(CURL *handle);
const char *quaver_curl_easy_strerror(CURLcode code);

/* curl_easy_setopt and curl_easy_getinfo are variadic: one typed wrapper per kind of argument. */
CURLcode quaver_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode quaver_curl_set_pointer(CURL *handle, CURLoption option, const void *value);
CURLcode quaver_curl_set_write_function(CURL *handle, CURLoption option,
                                        size_t (*function)(char *, size_t, size_t, void *));
long quaver_curl_get_long(CURL *handle, CURLINFO info);

CURLM *quaver_curl_multi_init(void);
void quaver_curl_multi_cleanup(CURLM *multi);
void quaver_curl_multi_add_handle(CURLM *multi, CURL *handle);
void quaver_curl_multi_remove_handle(CURLM *multi, CURL *handle);
void quaver_curl_multi_perform(CURLM *multi, int *running);
void quaver_curl_multi_poll(CURLM *multi, int timeout_milliseconds);
void quaver_curl_multi_wakeup(CURLM *multi);
CURLMsg *quaver_curl_multi_info_read(CURLM *multi, int *left);

struct curl_slist *quaver_curl_slist_append(struct curl_slist *list, const char *text);
void quaver_curl_slist_free_all(struct curl_slist *list);

/* Cast macros Swift cannot read. */
long quaver_curl_auth_basic(void);
long quaver_curl_auth_digest(void);
/* HTTP/2 over TLS when the server offers it (ALPN), HTTP/1.1 otherwise and for plain http. */
long quaver_curl_http2_over_tls(void);

#endif
