#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* The libcurl functions Quaver uses, found with dlsym. Set once under pthread_once, read-only after. */
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd[], unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char load_error[256] = "";

static int find(void *library, const char *name, void **slot) {
    *slot = dlsym(library, name);
    if (*slot) return 1;
    snprintf(load_error, sizeof load_error, "libcurl.so.4 lacks %s", name);
    return 0;
}

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "cannot load libcurl.so.4: %s", dlerror());
        return;
    }
    int found = find(library, "curl_global_init", (void **)&api.global_init)
        && find(library, "curl_easy_init", (void **)&api.easy_init)
        && find(library, "curl_easy_cleanup", (void **)&api.easy_cleanup)
        && find(library, "curl_easy_reset", (void **)&api.easy_reset)
        && find(library, "curl_easy_setopt", (void **)&api.easy_setopt)
        && find(library, "curl_easy_getinfo", (void **)&api.easy_getinfo)
        && find(library, "curl_easy_strerror", (void **)&api.easy_strerror)
        && find(library, "curl_multi_init", (void **)&api.multi_init)
        && find(library, "curl_multi_cleanup", (void **)&api.multi_cleanup)
        && find(library, "curl_multi_add_handle", (void **)&api.multi_add_handle)
        && find(library, "curl_multi_remove_handle", (void **)&api.multi_remove_handle)
        && find(library, "curl_multi_perform", (void **)&api.multi_perform)
        && find(library, "curl_multi_poll", (void **)&api.multi_poll)
        && find(library, "curl_multi_wakeup", (void **)&api.multi_wakeup)
        && find(library, "curl_multi_info_read", (void **)&api.multi_info_read)
        && find(library, "curl_slist_append", (void **)&api.slist_append)
        && find(library, "curl_slist_free_all", (void **)&api.slist_free_all);
    if (!found) return;  /* the library stays mapped: harmless, and unloading could race other users */
    if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
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

CURL *quaver_curl_easy_init(void) { return api.easy_init(); }
void quaver_curl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
void quaver_curl_easy_reset(CURL *handle) { api.easy_reset(handle); }
const char *quaver_curl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }

CURLcode quaver_curl_set_long(CURL *handle, CURLoption option, long value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode quaver_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode quaver_curl_set_write_function(CURL *handle, CURLoption option,
                                        size_t (*function)(char *, size_t, size_t, void *)) {
    return api.easy_setopt(handle, option, function);
}

long quaver_curl_get_long(CURL *handle, CURLINFO info) {
    long value = 0;
    return api.easy_getinfo(handle, info, &value) == CURLE_OK ? value : 0;
}

CURLM *quaver_curl_multi_init(void) { return api.multi_init(); }
void quaver_curl_multi_cleanup(CURLM *multi) { api.multi_cleanup(multi); }
void quaver_curl_multi_add_handle(CURLM *multi, CURL *handle) { api.multi_add_handle(multi, handle); }
void quaver_curl_multi_remove_handle(CURLM *multi, CURL *handle) { api.multi_remove_handle(multi, handle); }
void quaver_curl_multi_perform(CURLM *multi, int *running) { api.multi_perform(multi, running); }
void quaver_curl_multi_poll(CURLM *multi, int timeout_milliseconds) {
    api.multi_poll(multi, NULL, 0, timeout_milliseconds, NULL);
}
void quaver_curl_multi_wakeup(CURLM *multi) { api.multi_wakeup(multi); }
CURLMsg *quaver_curl_multi_info_read(CURLM *multi, int *left) { return api.multi_info_read(multi, left); }

struct curl_slist *quaver_curl_slist_append(struct curl_slist *list, const char *text) {
    return api.slist_append(list, text);
}
void quaver_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

long quaver_curl_auth_basic(void) { return (long)CURLAUTH_BASIC; }
long quaver_curl_auth_digest(void) { return (long)CURLAUTH_DIGEST; }
long quaver_curl_http2_over_tls(void) { return (long)CURL_HTTP_VERSION_2TLS; }
