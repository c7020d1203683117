#include "CGStreamerLibraries.h"

#include <CLibraryLoader.h>
#include <pthread.h>

/* The functions Quaver uses, found once under pthread_once, read-only after: `call` names them, `found` is the same
   memory in the order of `names`, one union per library file (made from the two lists). When a plugin has loaded a
   library already (none can before gst_init), the same copy is used. */
#define QUAVER_GST_NAME(result, name, parameters, arguments) "gst_" #name,
#define QUAVER_GST_SLOT(result, name, parameters, arguments) result (*name) parameters;
static const char *const pbutils_names[] = {QUAVER_GST_PBUTILS_FUNCTIONS(QUAVER_GST_NAME)};
static union {
    struct { QUAVER_GST_PBUTILS_FUNCTIONS(QUAVER_GST_SLOT) } call;
    void *found[sizeof pbutils_names / sizeof pbutils_names[0]];
} pbutils;
_Static_assert(sizeof pbutils.call == sizeof pbutils.found, "one function pointer per name");
static const char *const app_names[] = {QUAVER_GST_APP_FUNCTIONS(QUAVER_GST_NAME)};
static union {
    struct { QUAVER_GST_APP_FUNCTIONS(QUAVER_GST_SLOT) } call;
    void *found[sizeof app_names / sizeof app_names[0]];
} app;
_Static_assert(sizeof app.call == sizeof app.found, "one function pointer per name");

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char load_error[256] = "";

static void load(void) {
    static const char *const pbutils_files[] = {"libgstpbutils-1.0.so.0"}, *const app_files[] = {"libgstapp-1.0.so.0"};
    loaded = quaver_open_library(pbutils_files, 1, pbutils_names, pbutils.found,
                                 sizeof pbutils_names / sizeof pbutils_names[0], load_error, sizeof load_error)
        && quaver_open_library(app_files, 1, app_names, app.found, sizeof app_names / sizeof app_names[0], load_error,
                               sizeof load_error);
}

int quaver_gst_libraries_load(void) {
    pthread_once(&load_once, load);
    return loaded;
}

const char *quaver_gst_libraries_load_error(void) { return load_error; }

#define QUAVER_GST_PBUTILS_CALL(result, name, parameters, arguments) \
    result quaver_gst_##name parameters { return pbutils.call.name arguments; }
QUAVER_GST_PBUTILS_FUNCTIONS(QUAVER_GST_PBUTILS_CALL)
#define QUAVER_GST_APP_CALL(result, name, parameters, arguments) \
    result quaver_gst_##name parameters { return app.call.name arguments; }
QUAVER_GST_APP_FUNCTIONS(QUAVER_GST_APP_CALL)
