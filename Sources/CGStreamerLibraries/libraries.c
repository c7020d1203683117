#include "CGStreamerLibraries.h"

#include <CLibraryLoader.h>
#include <pthread.h>

/* The functions Quaver uses, found once under pthread_once, read-only after, one table per library file. When a
   plugin has loaded a library already (none can before gst_init), the same copy is used. */
#define QUAVER_LIBRARY_PREFIX "gst_"
QUAVER_LIBRARY_TABLE(QUAVER_GST_PBUTILS_FUNCTIONS, pbutils_names, pbutils);
QUAVER_LIBRARY_TABLE(QUAVER_GST_APP_FUNCTIONS, app_names, app);

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char load_error[256] = "";

static void load(void) {
    static const char *const pbutils_files[] = {"libgstpbutils-1.0.so.0"}, *const app_files[] = {"libgstapp-1.0.so.0"};
    loaded = quaver_open_library(pbutils_files, 1, pbutils_names, pbutils.found,
                                 QUAVER_LIBRARY_COUNT(pbutils_names), load_error, sizeof load_error)
        && quaver_open_library(app_files, 1, app_names, app.found, QUAVER_LIBRARY_COUNT(app_names), load_error,
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
