/* CPulse: the C headers of libpulse with its GLib main loop adapter (pkg-config libpulse-mainloop-glib) for Swift. A C interop module: it imports nothing of
   ours, and only DesktopEvents today; a libpulse wrapper module is to take it over (issue 15) may import it (docs/ARCHITECTURE.md, "Layers"). */
#include <pulse/pulseaudio.h>
#include <pulse/glib-mainloop.h>
