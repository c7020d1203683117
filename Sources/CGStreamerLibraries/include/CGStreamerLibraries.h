#ifndef QUAVER_CGSTREAMERLIBRARIES_H
#define QUAVER_CGSTREAMERLIBRARIES_H

/* GStreamer's pbutils (the discoverer, missing-plugin messages), app (appsrc, appsink), audio and base (type finding)
   libraries, loaded with gst_init (dlopen of libgstpbutils-1.0.so.0 and libgstapp-1.0.so.0, which bring the audio,
   video, tag and base libraries and ORC): a daemon that has loaded nothing runs no gst_init and never maps them.
   Linked, they were resident from start-up on (docs/reliability.md, "At rest, what is left"). GStreamer core
   (libgstreamer-1.0) stays linked. The types and constants come from the headers; every call of these libraries
   goes through the quaver_gst_ functions below, never to their gst_ symbols directly (the program is not linked
   against them). */
/* C interop: only the GStreamer wrapper may import this module (docs/ARCHITECTURE.md, "Layers"). */
#include <gst/gst.h>
#include <gst/pbutils/pbutils.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <gst/audio/audio.h>
#include <gst/base/gsttypefindhelper.h>

/* Loads the libraries once per process (thread-safe, pthread_once). 1 on success; otherwise
   quaver_gst_libraries_load_error() says why. Every function below may be called only after it returned 1. */
int quaver_gst_libraries_load(void);
const char *quaver_gst_libraries_load_error(void);

/* The functions Quaver uses, each as X(result type, name without gst_, parameters, arguments): the loader finds
   gst_<name> and quaver_gst_<name> calls it. Those of pbutils, audio and base are found through libgstpbutils, which
   links the other two; those of app through libgstapp. */
#define QUAVER_GST_PBUTILS_FUNCTIONS(X) \
    X(GstDiscoverer *, discoverer_new, (GstClockTime timeout, GError **error), (timeout, error)) \
    X(void, discoverer_start, (GstDiscoverer *discoverer), (discoverer)) \
    X(void, discoverer_stop, (GstDiscoverer *discoverer), (discoverer)) \
    X(gboolean, discoverer_discover_uri_async, (GstDiscoverer *discoverer, const gchar *uri), (discoverer, uri)) \
    X(GstDiscovererResult, discoverer_info_get_result, (const GstDiscovererInfo *info), (info)) \
    X(GstClockTime, discoverer_info_get_duration, (const GstDiscovererInfo *info), (info)) \
    X(GList *, discoverer_info_get_audio_streams, (GstDiscovererInfo *info), (info)) \
    X(GstDiscovererStreamInfo *, discoverer_info_get_stream_info, (GstDiscovererInfo *info), (info)) \
    X(const GstTagList *, discoverer_stream_info_get_tags, (GstDiscovererStreamInfo *info), (info)) \
    X(void, discoverer_stream_info_list_free, (GList *infos), (infos)) \
    X(gboolean, is_missing_plugin_message, (GstMessage *message), (message)) \
    X(gchar *, missing_plugin_message_get_description, (GstMessage *message), (message)) \
    X(gboolean, audio_info_from_caps, (GstAudioInfo *info, const GstCaps *caps), (info, caps)) \
    X(GstBuffer *, audio_buffer_clip, (GstBuffer *buffer, const GstSegment *segment, gint rate, gint bpf), \
      (buffer, segment, rate, bpf)) \
    X(const gchar *, audio_format_to_string, (GstAudioFormat format), (format)) \
    X(GType, audio_decoder_get_type, (void), ()) \
    X(GstCaps *, type_find_helper_for_data, (GstObject *object, const guint8 *data, gsize size, \
      GstTypeFindProbability *probability), (object, data, size, probability))

#define QUAVER_GST_APP_FUNCTIONS(X) \
    X(GType, app_src_get_type, (void), ()) \
    X(void, app_src_set_stream_type, (GstAppSrc *source, GstAppStreamType type), (source, type)) \
    X(void, app_src_set_size, (GstAppSrc *source, gint64 size), (source, size)) \
    X(void, app_src_set_callbacks, (GstAppSrc *source, GstAppSrcCallbacks *callbacks, gpointer data, \
      GDestroyNotify notify), (source, callbacks, data, notify)) \
    X(GstFlowReturn, app_src_push_buffer, (GstAppSrc *source, GstBuffer *buffer), (source, buffer)) \
    X(GstFlowReturn, app_src_end_of_stream, (GstAppSrc *source), (source)) \
    X(GType, app_sink_get_type, (void), ()) \
    X(GstSample *, app_sink_try_pull_sample, (GstAppSink *sink, GstClockTime timeout), (sink, timeout)) \
    X(gboolean, app_sink_is_eos, (GstAppSink *sink), (sink))

#define QUAVER_GST_LIBRARY_DECLARE(result, name, parameters, arguments) result quaver_gst_##name parameters;
QUAVER_GST_PBUTILS_FUNCTIONS(QUAVER_GST_LIBRARY_DECLARE)
QUAVER_GST_APP_FUNCTIONS(QUAVER_GST_LIBRARY_DECLARE)
#undef QUAVER_GST_LIBRARY_DECLARE

#endif
