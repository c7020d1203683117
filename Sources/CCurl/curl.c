#include "CCurl.h"

#include <CLibraryLoader.h>
#include <pthread.h>
#include <stdio.h>

/* The libcurl functions Quaver uses, each as X(result type, name without curl_, parameters). */
#define QUAVER_CURL_FUNCTIONS(X) \
    X(CURLcode, global_init, (long)) \
    X(CURL *, easy_init, (void)) \
    X(void, easy_cleanup, (CURL *)) \
    X(void, easy_reset, (CURL *)) \
    X(CURLcode, easy_setopt, (CURL *, CURLoption, ...)) \
    X(CURLcode, easy_getinfo, (CURL *, CURLINFO, ...)) \
    X(const char *, easy_strerror, (CURLcode)) \
    X(CURLM *, multi_init, (void)) \
    X(CURLMcode, multi_cleanup, (CURLM *)) \
    X(CURLMcode, multi_add_handle, (CURLM *, CURL *)) \
    X(CURLMcode, multi_remove_handle, (CURLM *, CURL *)) \
    X(CURLMcode, multi_perform, (CURLM *, int *)) \
    X(CURLMcode, multi_poll, (CURLM *, struct curl_waitfd[], unsigned int, int, int *)) \
    X(CURLMcode, multi_wakeup, (CURLM *)) \
    X(CURLMsg *, multi_info_read, (CURLM *, int *)) \
    X(struct curl_slist *, slist_append, (struct curl_slist *, const char *)) \
    X(void, slist_free_all, (struct curl_slist *))

/* Found once under pthread_once, read-only after. */
#define QUAVER_LIBRARY_PREFIX "curl_"
QUAVER_LIBRARY_TABLE(QUAVER_CURL_FUNCTIONS, names, api);

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char load_error[256] = "";

static void load(void) {
    static const char *const files[] = {"libcurl.so.4"};
    if (!quaver_open_library(files, 1, names, api.found, QUAVER_LIBRARY_COUNT(names), load_error, sizeof load_error))
        return;
    if (api.call.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "curl_global_init failed");
        return;
    }
    loaded = 1;
}

int quaver_curl_load(void) {
    pthread_once(&load_once, load);
    return loaded;
}

const char *quaver_curl_load_error(void) { return load_error; }

/* Every function below is called only after quaver_curl_load() returned 1 (HTTPSession checks). */

CURL *quaver_curl_easy_init(void) { return api.call.easy_init(); }
void quaver_curl_easy_cleanup(CURL *handle) { api.call.easy_cleanup(handle); }
void quaver_curl_easy_reset(CURL *handle) { api.call.easy_reset(handle); }
const char *quaver_curl_easy_strerror(CURLcode code) { return api.call.easy_strerror(code); }

CURLcode quaver_curl_set_long(CURL *handle, CURLoption option, long value) {
    return api.call.easy_setopt(handle, option, value);
}

CURLcode quaver_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
    return api.call.easy_setopt(handle, option, value);
}

CURLcode quaver_curl_set_write_function(CURL *handle, CURLoption option,
                                        size_t (*function)(char *, size_t, size_t, void *)) {
    return api.call.easy_setopt(handle, option, function);
}

long quaver_curl_get_long(CURL *handle, CURLINFO info) {
    long value = 0;
    return api.call.easy_getinfo(handle, info, &value) == CURLE_OK ? value : 0;
}

CURLM *quaver_curl_multi_init(void) { return api.call.multi_init(); }
void quaver_curl_multi_cleanup(CURLM *multi) { api.call.multi_cleanup(multi); }
void quaver_curl_multi_add_handle(CURLM *multi, CURL *handle) { api.call.multi_add_handle(multi, handle); }
void quaver_curl_multi_remove_handle(CURLM *multi, CURL *handle) { api.call.multi_remove_handle(multi, handle); }
void quaver_curl_multi_perform(CURLM *multi, int *running) { api.call.multi_perform(multi, running); }
void quaver_curl_multi_poll(CURLM *multi, int timeout_milliseconds) {
    api.call.multi_poll(multi, NULL, 0, timeout_milliseconds, NULL);
}
void quaver_curl_multi_wakeup(CURLM *multi) { api.call.multi_wakeup(multi); }
CURLMsg *quaver_curl_multi_info_read(CURLM *multi, int *left) { return api.call.multi_info_read(multi, left); }

struct curl_slist *quaver_curl_slist_append(struct curl_slist *list, const char *text) {
    return api.call.slist_append(list, text);
}
void quaver_curl_slist_free_all(struct curl_slist *list) { api.call.slist_free_all(list); }

long quaver_curl_auth_basic(void) { return (long)CURLAUTH_BASIC; }
long quaver_curl_auth_digest(void) { return (long)CURLAUTH_DIGEST; }
long quaver_curl_http2_over_tls(void) { return (long)CURL_HTTP_VERSION_2TLS; }
