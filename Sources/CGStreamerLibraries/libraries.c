#include "CGStreamerLibraries.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* The functions Quaver uses, found with dlsym. Set once under pthread_once, read-only after. */
#define QUAVER_GST_LIBRARY_SLOT(result, name, parameters, arguments) result (*name) parameters;
static struct { QUAVER_GST_LIBRARY_FUNCTIONS(QUAVER_GST_LIBRARY_SLOT) } functions;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char load_error[256] = "";
/* dlsym on a handle searches that library's dependencies too: pbutils brings audio and base. */
static const char *const names[] = { "libgstpbutils-1.0.so.0", "libgstapp-1.0.so.0" };
static void *libraries[2];

static int find(const char *name, void **slot) {
    for (int i = 0; i < 2; i++) {
        *slot = dlsym(libraries[i], name);
        if (*slot) return 1;
    }
    snprintf(load_error, sizeof load_error, "GStreamer's libraries lack %s", name);
    return 0;
}

static void load(void) {
    for (int i = 0; i < 2; i++) {
        /* When a plugin has loaded one already (none can before gst_init), the same copy is used. */
        libraries[i] = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!libraries[i]) {
            snprintf(load_error, sizeof load_error, "cannot load %s: %s", names[i], dlerror());
            return;
        }
    }
#define QUAVER_GST_LIBRARY_FIND(result, name, parameters, arguments) && find("gst_" #name, (void **)&functions.name)
    /* The libraries stay mapped when one is missing: harmless, and unloading could race other users. */
    loaded = 1 QUAVER_GST_LIBRARY_FUNCTIONS(QUAVER_GST_LIBRARY_FIND);
}

int quaver_gst_libraries_load(void) {
    pthread_once(&load_once, load);
    return loaded;
}

const char *quaver_gst_libraries_load_error(void) { return load_error; }

#define QUAVER_GST_LIBRARY_CALL(result, name, parameters, arguments) \
    result quaver_gst_##name parameters { return functions.name arguments; }
QUAVER_GST_LIBRARY_FUNCTIONS(QUAVER_GST_LIBRARY_CALL)
