#include "CTagLibLoader.h"

#include <CLibraryLoader.h>
#include <pthread.h>

/* CTagLib's two functions, found once under pthread_once, read-only after. */
#define QUAVER_TAGLIB_FUNCTIONS(X) \
    X(int, read, (const char *, quaver_tag_value_callback, void *, quaver_tag_info *)) \
    X(int, read_cover, (const char *, quaver_cover_callback, void *))
#define QUAVER_LIBRARY_PREFIX "quaver_taglib_"
QUAVER_LIBRARY_TABLE(QUAVER_TAGLIB_FUNCTIONS, names, api);

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char load_error[512] = "";

static void load(void) {
    static const char *const places[] = {"$ORIGIN/../lib/quaver/libquaver-taglib.so", "$ORIGIN/libquaver-taglib.so"};
    loaded = quaver_open_library(places, 2, names, api.found, QUAVER_LIBRARY_COUNT(names), load_error, sizeof load_error);
}

int quaver_tags_load(void) {
    pthread_once(&load_once, load);
    return loaded;
}

const char *quaver_tags_load_error(void) { return load_error; }

int quaver_tags_read(const char *path, quaver_tag_value_callback on_value, void *context, quaver_tag_info *info) {
    info->length_ms = 0;
    info->has_cover = 0;
    return quaver_tags_load() ? api.call.read(path, on_value, context, info) : 0;
}

int quaver_tags_read_cover(const char *path, quaver_cover_callback on_cover, void *context) {
    return quaver_tags_load() ? api.call.read_cover(path, on_cover, context) : 0;
}
