#include "CPulse.h"

#include <CLibraryLoader.h>
#include <pthread.h>

/* The libpulse functions Quaver uses, found once under pthread_once, read-only after. dlsym on the adapter's handle
   searches its dependencies too, libpulse.so.0 among them; when pulsesink has loaded libpulse already, the same copy
   is used. */
#define QUAVER_LIBRARY_PREFIX "pa_"
QUAVER_LIBRARY_TABLE(QUAVER_PULSE_FUNCTIONS, names, api);

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char load_error[256] = "";

static void load(void) {
    static const char *const files[] = {"libpulse-mainloop-glib.so.0"};
    loaded = quaver_open_library(files, 1, names, api.found, QUAVER_LIBRARY_COUNT(names), load_error,
                                 sizeof load_error);
}

int quaver_pulse_load(void) {
    pthread_once(&load_once, load);
    return loaded;
}

const char *quaver_pulse_load_error(void) { return load_error; }

#define QUAVER_PULSE_CALL(result, name, parameters, arguments) \
    result quaver_pa_##name parameters { return api.call.name arguments; }
QUAVER_PULSE_FUNCTIONS(QUAVER_PULSE_CALL)
