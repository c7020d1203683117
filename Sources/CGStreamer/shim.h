/* CGStreamer: the C headers of GStreamer core (pkg-config gstreamer-1.0) for Swift; pbutils, app, audio and base, loaded
   with gst_init, are CGStreamerLibraries'. A C interop module: it imports nothing of ours, and only the GStreamer
   wrapper (and CShims) may import it (docs/ARCHITECTURE.md, "Layers"). */
#include <gst/gst.h>
