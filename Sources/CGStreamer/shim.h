/* CGStreamer: the C headers of GStreamer core, pbutils (the discoverer), appsrc, appsink, audio buffers and type finding (pkg-config gstreamer-1.0) for Swift. A C interop module: it imports nothing of
   ours, and only the GStreamer wrapper (and CShims) may import it (docs/ARCHITECTURE.md, "Layers"). */
#include <gst/gst.h>
#include <gst/pbutils/pbutils.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <gst/audio/audio.h>
#include <gst/base/gsttypefindhelper.h>
