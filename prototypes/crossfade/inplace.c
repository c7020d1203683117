/* Prototype only (never in the repository): the incoming track decoded in a pipeline of its own into an appsink,
 * its first N seconds added in place into the outgoing track's last N seconds by a buffer probe in front of
 * playbin's sink (equal-power gains per sample); playbin is handed the incoming track at about-to-finish and its
 * first N seconds are cut there (segment start moved to N, buffers clipped), so it carries on where the mix ended.
 * S16LE only, as the prototype's files are. */
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/audio/audio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static GMainLoop *loop;
static const char *incomingURI;
static double outgoingLength, overlap;
static GstElement *incoming, *appsink;
static int streamStarts = 0;
static gboolean cutting = FALSE;
static GstSegment cutSegment;
static GstBuffer *pending; static gsize pendingOffset;   /* incoming samples pulled but not yet mixed */
static guint64 mixedFrames = 0, missedFrames = 0;

static gboolean startIncoming(gpointer capsText) {
  gchar *text = g_strdup_printf("uridecodebin uri=%s ! audioconvert ! audioresample ! %s ! appsink name=in sync=false max-buffers=64",
                                incomingURI, (char *)capsText);
  incoming = gst_parse_launch(text, NULL);
  appsink = gst_bin_get_by_name(GST_BIN(incoming), "in");
  gst_element_set_state(incoming, GST_STATE_PLAYING);
  fprintf(stderr, "incoming pipeline started with %s\n", (char *)capsText);
  return G_SOURCE_REMOVE;
}

/* the next incoming frame (both channels), 0 when none is ready: the streaming thread never waits */
static gboolean nextIncoming(gint16 frame[2]) {
  while (!pending || pendingOffset >= gst_buffer_get_size(pending)) {
    if (pending) { gst_buffer_unref(pending); pending = NULL; }
    GstSample *sample = appsink ? gst_app_sink_try_pull_sample(GST_APP_SINK(appsink), 0) : NULL;
    if (!sample) return FALSE;
    pending = gst_buffer_ref(gst_sample_get_buffer(sample)); pendingOffset = 0;
    gst_sample_unref(sample);
  }
  gst_buffer_extract(pending, pendingOffset, frame, 4); pendingOffset += 4;
  return TRUE;
}

static void mix(GstBuffer *buffer, GstClockTime pts, int rate) {
  GstMapInfo map; gst_buffer_map(buffer, &map, GST_MAP_READWRITE);
  gint16 *samples = (gint16 *)map.data; gsize frames = map.size / 4;
  double start = outgoingLength - overlap;
  for (gsize i = 0; i < frames; i++) {
    double t = (double)pts / GST_SECOND + (double)i / rate - start;
    if (t < 0) continue;
    double g = t / overlap; if (g > 1) g = 1;
    gint16 in[2] = {0, 0};
    if (nextIncoming(in)) mixedFrames++; else missedFrames++;
    for (int c = 0; c < 2; c++) {
      double v = samples[2 * i + c] * cos(g * M_PI / 2) + in[c] * sin(g * M_PI / 2);
      samples[2 * i + c] = (gint16)CLAMP(lround(v), -32768, 32767);
    }
  }
  gst_buffer_unmap(buffer, &map);
}

static GstPadProbeReturn inFrontOfSink(GstPad *pad, GstPadProbeInfo *info, gpointer unused) {
  if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) == GST_EVENT_STREAM_START && ++streamStarts == 2) cutting = TRUE;
    if (GST_EVENT_TYPE(event) == GST_EVENT_SEGMENT && cutting) {
      const GstSegment *segment; gst_event_parse_segment(event, &segment);
      gst_segment_copy_into(segment, &cutSegment);
      cutSegment.start = cutSegment.time = cutSegment.position = (guint64)(overlap * GST_SECOND);
      info->data = gst_event_new_segment(&cutSegment);
      gst_event_unref(event);
      fprintf(stderr, "incoming segment in playbin: starts at %.3f s\n", overlap);
    }
    return GST_PAD_PROBE_OK;
  }
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  GstCaps *caps = gst_pad_get_current_caps(pad);
  GstAudioInfo audio; gst_audio_info_from_caps(&audio, caps);
  if (!incoming && !appsink && streamStarts == 1 && GST_BUFFER_PTS(buffer) >= (outgoingLength - overlap - 1.0) * GST_SECOND) {
    appsink = (GstElement *)1; /* once */
    g_idle_add(startIncoming, gst_caps_to_string(caps));
  }
  gst_caps_unref(caps);
  if (cutting) {
    buffer = gst_audio_buffer_clip(buffer, &cutSegment, audio.rate, audio.bpf);
    info->data = buffer;
    return buffer ? GST_PAD_PROBE_OK : GST_PAD_PROBE_HANDLED;  /* clip unreffed it */
  }
  if (streamStarts == 1 && GST_BUFFER_PTS(buffer) + GST_BUFFER_DURATION(buffer) > (outgoingLength - overlap) * GST_SECOND) {
    buffer = gst_buffer_make_writable(buffer);
    mix(buffer, GST_BUFFER_PTS(buffer), audio.rate);
    info->data = buffer;
  }
  return GST_PAD_PROBE_OK;
}

static void aboutToFinish(GstElement *playbin, gpointer unused) {
  static gboolean handed = FALSE;
  if (!handed) { handed = TRUE; g_object_set(playbin, "uri", incomingURI, NULL); }
}

static gboolean busMessage(GstBus *bus, GstMessage *message, gpointer unused) {
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_STREAM_START) fprintf(stderr, "bus STREAM_START\n");
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_EOS) g_main_loop_quit(loop);
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) { fprintf(stderr, "error\n"); g_main_loop_quit(loop); }
  return TRUE;
}

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  if (argc < 6) { fprintf(stderr, "inplace outgoing-uri incoming-uri out.wav outgoing-seconds overlap-seconds\n"); return 2; }
  incomingURI = argv[2]; outgoingLength = atof(argv[4]); overlap = atof(argv[5]);
  GstElement *playbin = gst_element_factory_make("playbin", NULL);
  gchar *sinkText = g_strdup_printf("identity name=front ! audioconvert ! audio/x-raw,format=S16LE ! wavenc ! filesink sync=true location=%s", argv[3]);
  GstElement *sink = gst_parse_bin_from_description(sinkText, TRUE, NULL);
  GstPad *front = gst_element_get_static_pad(sink, "sink");
  gst_pad_add_probe(front, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, inFrontOfSink, NULL, NULL);
  g_object_set(playbin, "uri", argv[1], "audio-sink", sink, NULL);
  gst_util_set_object_arg(G_OBJECT(playbin), "flags", "audio");
  g_signal_connect(playbin, "about-to-finish", G_CALLBACK(aboutToFinish), NULL);
  loop = g_main_loop_new(NULL, FALSE);
  gst_bus_add_watch(GST_ELEMENT_BUS(playbin), busMessage, NULL);
  gst_element_set_state(playbin, GST_STATE_PLAYING);
  g_main_loop_run(loop);
  fprintf(stderr, "stream starts %d, frames mixed %lu, frames with no incoming sample ready %lu\n", streamStarts,
          (unsigned long)mixedFrames, (unsigned long)missedFrames);
  gst_element_set_state(playbin, GST_STATE_NULL);
  if (incoming) { gst_element_set_state(incoming, GST_STATE_NULL); gst_object_unref(appsink); gst_object_unref(incoming); }
  if (pending) gst_buffer_unref(pending);
  gst_object_unref(front); gst_object_unref(playbin);
  return 0;
}
