#include "CPulse.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* The libpulse functions Quaver uses, found with dlsym. Set once under pthread_once, read-only after. */
#define QUAVER_PULSE_SLOT(result, name, parameters, arguments) result (*name) parameters;
static struct { QUAVER_PULSE_FUNCTIONS(QUAVER_PULSE_SLOT) } functions;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char load_error[256] = "";

static int find(void *library, const char *name, void **slot) {
    *slot = dlsym(library, name);
    if (*slot) return 1;
    snprintf(load_error, sizeof load_error, "libpulse-mainloop-glib.so.0 lacks %s", name);
    return 0;
}

static void load(void) {
    /* dlsym on this handle searches its dependencies too, libpulse.so.0 among them. When pulsesink has loaded
       libpulse already, the same copy is used. */
    void *library = dlopen("libpulse-mainloop-glib.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "cannot load libpulse-mainloop-glib.so.0: %s", dlerror());
        return;
    }
#define QUAVER_PULSE_FIND(result, name, parameters, arguments) && find(library, "pa_" #name, (void **)&functions.name)
    /* The library stays mapped when one is missing: harmless, and unloading could race other users. */
    loaded = 1 QUAVER_PULSE_FUNCTIONS(QUAVER_PULSE_FIND);
}

int quaver_pulse_load(void) {
    pthread_once(&load_once, load);
    return loaded;
}

const char *quaver_pulse_load_error(void) { return load_error; }

#define QUAVER_PULSE_CALL(result, name, parameters, arguments) \
    result quaver_pa_##name parameters { return functions.name arguments; }
QUAVER_PULSE_FUNCTIONS(QUAVER_PULSE_CALL)
