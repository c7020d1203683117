#include "CShims.h"

#include <string.h>

static quaver_glib_message_sink routed_sink;

static GLogWriterOutput quaver_glib_writer(GLogLevelFlags level, const GLogField *fields, gsize field_count,
                                           gpointer user_data) {
    (void)user_data;
    const char *domain = NULL;
    const char *message = NULL;
    long domain_length = 0;
    long length = 0;
    for (gsize i = 0; i < field_count; i++) {
        if (fields[i].value == NULL) continue;
        if (g_strcmp0(fields[i].key, "GLIB_DOMAIN") == 0) {
            domain = fields[i].value;
            domain_length = fields[i].length < 0 ? (long)strlen(domain) : (long)fields[i].length;
        } else if (g_strcmp0(fields[i].key, "MESSAGE") == 0) {
            message = fields[i].value;
            length = fields[i].length < 0 ? (long)strlen(message) : (long)fields[i].length;
        }
    }
    if (message != NULL) routed_sink(level & G_LOG_LEVEL_MASK, domain, domain_length, message, length);
    return G_LOG_WRITER_HANDLED;
}

void quaver_route_glib_messages(quaver_glib_message_sink sink) {
    routed_sink = sink;
    g_log_set_writer_func(quaver_glib_writer, NULL, NULL);
}

/* GLib's slice allocator left to malloc, as GLib does itself from 2.76 on: Debian 12's 2.74 keeps per-thread
   magazines and slabs for the small objects GObject and GStreamer allocate, 1.3 MB more heap while playing than malloc
   needs for the same objects (docs/reliability.md, "Memory while playing"). GLib takes its slice settings once, at its
   first slice, which GObject's own initialiser makes before main runs; only an executable's DT_PREINIT_ARRAY runs
   before every library's initialiser. Setting G_SLICE there does not work (libc's initialiser sets the environment
   again afterwards), so the setting is made by GLib's own call, which works only before that first slice. A G_SLICE
   the user set (GLib's debugging options) is left to GLib. */
static void quaver_leave_glib_slices_to_malloc(int argc, char **argv, char **envp) {
    (void)argc, (void)argv;
    for (char **variable = envp; variable && *variable; variable++) {
        if (strncmp(*variable, "G_SLICE=", 8) == 0) return;
    }
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    g_slice_set_config(G_SLICE_CONFIG_ALWAYS_MALLOC, TRUE);
    G_GNUC_END_IGNORE_DEPRECATIONS
}
__attribute__((section(".preinit_array"), used))
static void (*quaver_before_libraries_start)(int, char **, char **) = quaver_leave_glib_slices_to_malloc;
