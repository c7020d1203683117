#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <stdio.h>

static int find_all(void *library, const char *file, const char *const names[], void *found[], unsigned count,
                    char error[], unsigned error_size) {
    for (unsigned i = 0; i < count; i++) {
        found[i] = dlsym(library, names[i]);
        if (!found[i]) {
            snprintf(error, error_size, "%s lacks %s", file, names[i]);
            return 0;
        }
    }
    return 1;
}

int quaver_open_library(const char *const files[], unsigned file_count, const char *const names[], void *found[],
                        unsigned count, char error[], unsigned error_size) {
    void *handle;
    return quaver_open_library_handle(files, file_count, names, found, count, error, error_size, &handle);
}

int quaver_open_library_handle(const char *const files[], unsigned file_count, const char *const names[],
                               void *found[], unsigned count, char error[], unsigned error_size, void **handle) {
    for (unsigned i = 0; i < file_count; i++) {
        void *library = dlopen(files[i], RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            snprintf(error, error_size, "cannot load %s: %s", files[i], dlerror());
            continue;
        }
        if (!find_all(library, files[i], names, found, count, error, error_size)) return 0;
        if (error_size > 0) error[0] = 0;  /* a file tried before may have failed */
        *handle = library;
        return 1;
    }
    return 0;
}
