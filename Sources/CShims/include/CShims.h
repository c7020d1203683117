// Static inline wrappers for the C macros and variadic functions Swift cannot call.
// Keep this file tiny: everything that Swift can call directly is called directly.
// C interop layer: includes the GLib, GStreamer and libdbus headers; only the wrappers (EventLoop, DBus,
// GStreamer) may import it (docs/ARCHITECTURE.md, "Layers").
#ifndef QUAVER_CSHIMS_H
#define QUAVER_CSHIMS_H

#include <glib.h>
#include <glib-object.h>
#include <malloc.h>

/// G_TYPE_* are cast macros (G_TYPE_MAKE_FUNDAMENTAL), invisible to Swift.
static inline GType quaver_g_type_string(void) { return G_TYPE_STRING; }
static inline GType quaver_g_type_boolean(void) { return G_TYPE_BOOLEAN; }
static inline GType quaver_g_type_double(void) { return G_TYPE_DOUBLE; }
static inline GType quaver_g_type_int(void) { return G_TYPE_INT; }
static inline GType quaver_g_type_uint(void) { return G_TYPE_UINT; }
static inline GType quaver_g_type_int64(void) { return G_TYPE_INT64; }
static inline GType quaver_g_type_object(void) { return G_TYPE_OBJECT; }

/// mallopt and M_ARENA_MAX come from <malloc.h>, which Swift's Glibc module leaves out.
static inline void quaver_use_one_malloc_arena(void) { mallopt(M_ARENA_MAX, 1); }

/// Whether GLib leaves its slices to malloc (shims.c makes it so before GLib starts), for the tests; GLib's getter is
/// deprecated with its setter.
static inline gboolean quaver_glib_slices_use_malloc(void) {
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    return (gboolean)g_slice_get_config(G_SLICE_CONFIG_ALWAYS_MALLOC);
    G_GNUC_END_IGNORE_DEPRECATIONS
}

/// Where GLib's messages go once routed: level is one GLogLevelFlags bit; domain (may be NULL) and message
/// are byte ranges, not NUL-terminated. Called on whichever thread logged.
typedef void (*quaver_glib_message_sink)(int level, const char *domain, long domain_length,
                                         const char *message, long length);

/// Installs a GLib log writer (g_log_set_writer_func, which takes no Swift closure) that hands every message
/// of GLib, GObject, GStreamer and its plugins to `sink` instead of writing it to stderr. Once per process.
void quaver_route_glib_messages(quaver_glib_message_sink sink);

/// malloc_trim(3): returns free heap pages to the system (a glibc extension Swift's Glibc module lacks).
static inline void quaver_return_free_heap(void) { malloc_trim(0); }

#endif
