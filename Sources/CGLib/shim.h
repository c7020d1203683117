/* CGLib: the C headers of GLib and GObject (pkg-config glib-2.0) for Swift. A C interop module: it imports nothing of
   ours, and only the EventLoop and GStreamer wrappers (and CShims) may import it (docs/ARCHITECTURE.md, "Layers"). */
#include <glib.h>
#include <glib-unix.h>
#include <glib-object.h>
