#include "CTagLibLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* CTagLib's two functions, found with dlsym. Set once under pthread_once, read-only after. */
static struct {
    int (*read)(const char *, quaver_tag_value_callback, void *, quaver_tag_info *);
    int (*read_cover)(const char *, quaver_cover_callback, void *);
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char load_error[512] = "";

/* glibc expands $ORIGIN in dlopen's file name to the folder of the program (or library) that calls it. */
static void *open_library(void) {
    static const char *const places[] = {"$ORIGIN/../lib/quaver/libquaver-taglib.so", "$ORIGIN/libquaver-taglib.so"};
    for (unsigned i = 0; i < sizeof places / sizeof places[0]; i++) {
        void *library = dlopen(places[i], RTLD_NOW | RTLD_LOCAL);
        if (library) return library;
        snprintf(load_error, sizeof load_error, "cannot load libquaver-taglib.so: %s", dlerror());
    }
    return NULL;
}

static void load(void) {
    void *library = open_library();
    if (!library) return;
    api.read = (int (*)(const char *, quaver_tag_value_callback, void *, quaver_tag_info *))dlsym(library, "quaver_taglib_read");
    api.read_cover = (int (*)(const char *, quaver_cover_callback, void *))dlsym(library, "quaver_taglib_read_cover");
    if (!api.read || !api.read_cover) {
        snprintf(load_error, sizeof load_error, "libquaver-taglib.so lacks quaver_taglib_read or quaver_taglib_read_cover");
        return;  /* the library stays mapped: harmless */
    }
    load_error[0] = 0;
    loaded = 1;
}

int quaver_tags_load(void) {
    pthread_once(&load_once, load);
    return loaded;
}

const char *quaver_tags_load_error(void) { return load_error; }

int quaver_tags_read(const char *path, quaver_tag_value_callback on_value, void *context, quaver_tag_info *info) {
    info->length_ms = 0;
    info->has_cover = 0;
    return quaver_tags_load() ? api.read(path, on_value, context, info) : 0;
}

int quaver_tags_read_cover(const char *path, quaver_cover_callback on_cover, void *context) {
    return quaver_tags_load() ? api.read_cover(path, on_cover, context) : 0;
}
