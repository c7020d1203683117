/* Prototype only (never in the repository): does an incoming track, decoded by a second uridecodebin inside
 * playbin's audio-filter bin, join playbin's stream through audiomixer at a chosen running time, with
 * equal-power pad volumes from a controller? Writes what the sink receives to a WAV. */
#include <gst/gst.h>
#include <gst/controller/gstinterpolationcontrolsource.h>
#include <gst/controller/gstdirectcontrolbinding.h>
#include <math.h>
#include <stdio.h>

static GstElement *playbin, *filter, *mixer;
static const char *incomingURI;
static double overlapStart, overlapLength, addAt;
static gboolean added = FALSE;
static GMainLoop *loop;

static void equalPower(GstPad *pad, gboolean rising, double from) {
  GstControlSource *cs = gst_interpolation_control_source_new();
  g_object_set(cs, "mode", GST_INTERPOLATION_MODE_LINEAR, NULL);
  GstTimedValueControlSource *tv = (GstTimedValueControlSource *)cs;
  int steps = 100;
  for (int i = 0; i <= steps; i++) {
    double g = (double)i / steps, v = rising ? sin(g * M_PI / 2) : cos(g * M_PI / 2);
    /* the direct binding maps 0..1 onto the property's range 0..10 */
    gst_timed_value_control_source_set(tv, (GstClockTime)((from + g * overlapLength) * GST_SECOND), v / 10.0);
  }
  gst_object_add_control_binding(GST_OBJECT(pad), gst_direct_control_binding_new(GST_OBJECT(pad), "volume", cs));
  gst_object_unref(cs);
}

static void decodedPad(GstElement *decoder, GstPad *pad, gpointer chain) {
  GstPad *sink = gst_element_get_static_pad(GST_ELEMENT(chain), "sink");
  if (!gst_pad_is_linked(sink)) gst_pad_link(pad, sink);
  gst_object_unref(sink);
}

static gboolean addIncoming(gpointer unused) {
  GstElement *decoder = gst_element_factory_make("uridecodebin", "incoming");
  GstElement *chain = gst_parse_bin_from_description("audioconvert ! audioresample", TRUE, NULL);
  g_object_set(decoder, "uri", incomingURI, NULL);
  gst_bin_add_many(GST_BIN(filter), decoder, chain, NULL);
  GstPad *src = gst_element_get_static_pad(chain, "src");
  GstPad *mixPad = gst_element_request_pad_simple(mixer, "sink_%u");
  gst_pad_set_offset(src, (gint64)(overlapStart * GST_SECOND));
  equalPower(mixPad, TRUE, 0); /* the pad's own stream time: the offset is not counted */
  gst_pad_link(src, mixPad);
  gst_object_unref(src);
  gst_object_unref(mixPad);
  g_signal_connect(decoder, "pad-added", G_CALLBACK(decodedPad), chain);
  gst_element_sync_state_with_parent(chain);
  gst_element_sync_state_with_parent(decoder);
  fprintf(stderr, "incoming added\n");
  return G_SOURCE_REMOVE;
}

static GstPadProbeReturn outgoingBuffer(GstPad *pad, GstPadProbeInfo *info, gpointer unused) {
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  if (!added && GST_BUFFER_PTS(buffer) >= (GstClockTime)(addAt * GST_SECOND)) {
    added = TRUE;
    g_idle_add(addIncoming, NULL);
  }
  return GST_PAD_PROBE_OK;
}

static gboolean busMessage(GstBus *bus, GstMessage *message, gpointer unused) {
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_EOS) g_main_loop_quit(loop);
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) {
    GError *error; gchar *debug; gst_message_parse_error(message, &error, &debug);
    fprintf(stderr, "error: %s (%s)\n", error->message, debug); g_main_loop_quit(loop);
  }
  return TRUE;
}

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  if (argc < 7) { fprintf(stderr, "xfade outgoing-uri incoming-uri out.wav overlap-start overlap-seconds add-at\n"); return 2; }
  incomingURI = argv[2]; overlapStart = atof(argv[4]); overlapLength = atof(argv[5]); addAt = atof(argv[6]);
  playbin = gst_element_factory_make("playbin", NULL);
  filter = gst_bin_new("filter");
  mixer = gst_element_factory_make("audiomixer", "mix");
  gst_bin_add(GST_BIN(filter), mixer);
  GstPad *first = gst_element_request_pad_simple(mixer, "sink_%u");
  equalPower(first, FALSE, overlapStart);
  gst_element_add_pad(filter, gst_ghost_pad_new("sink", first));
  GstPad *mixSrc = gst_element_get_static_pad(mixer, "src");
  gst_element_add_pad(filter, gst_ghost_pad_new("src", mixSrc));
  gst_pad_add_probe(first, GST_PAD_PROBE_TYPE_BUFFER, outgoingBuffer, NULL, NULL);
  gchar *sinkText = g_strdup_printf("audioconvert ! audio/x-raw,format=S16LE ! wavenc ! filesink sync=true location=%s", argv[3]);
  GstElement *sink = gst_parse_bin_from_description(sinkText, TRUE, NULL);
  g_object_set(playbin, "uri", argv[1], "audio-filter", filter, "audio-sink", sink, NULL);
  gst_util_set_object_arg(G_OBJECT(playbin), "flags", "audio");
  loop = g_main_loop_new(NULL, FALSE);
  gst_bus_add_watch(GST_ELEMENT_BUS(playbin), busMessage, NULL);
  gst_element_set_state(playbin, GST_STATE_PLAYING);
  g_main_loop_run(loop);
  gst_element_set_state(playbin, GST_STATE_NULL);
  gst_object_unref(playbin);
  return 0;
}
