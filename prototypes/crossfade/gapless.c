/* Prototype only: playbin with audiomixer as its audio filter (one pad) across a gapless switch: are the
 * samples bit-exact, and does the bus still see each item's STREAM_START? */
#include <gst/gst.h>
#include <stdio.h>
static GMainLoop *loop; static const char *second; static int handed = 0, starts = 0;
static void aboutToFinish(GstElement *playbin, gpointer unused) {
  if (!handed++) g_object_set(playbin, "uri", second, NULL);
}
static gboolean busMessage(GstBus *bus, GstMessage *message, gpointer unused) {
  switch (GST_MESSAGE_TYPE(message)) {
  case GST_MESSAGE_STREAM_START: starts++; fprintf(stderr, "STREAM_START from %s\n", GST_OBJECT_NAME(GST_MESSAGE_SRC(message))); break;
  case GST_MESSAGE_EOS: g_main_loop_quit(loop); break;
  case GST_MESSAGE_ERROR: fprintf(stderr, "error\n"); g_main_loop_quit(loop); break;
  default: break;
  }
  return TRUE;
}
int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  second = argv[2];
  GstElement *playbin = gst_element_factory_make("playbin", NULL);
  gchar *sinkText = g_strdup_printf("audioconvert ! audio/x-raw,format=S16LE ! wavenc ! filesink location=%s", argv[3]);
  GstElement *sink = gst_parse_bin_from_description(sinkText, TRUE, NULL);
  g_object_set(playbin, "uri", argv[1], "audio-sink", sink, NULL);
  if (argc > 4) g_object_set(playbin, "audio-filter", gst_element_factory_make(argv[4], NULL), NULL);
  gst_util_set_object_arg(G_OBJECT(playbin), "flags", "audio");
  g_signal_connect(playbin, "about-to-finish", G_CALLBACK(aboutToFinish), NULL);
  loop = g_main_loop_new(NULL, FALSE);
  gst_bus_add_watch(GST_ELEMENT_BUS(playbin), busMessage, NULL);
  gst_element_set_state(playbin, GST_STATE_PLAYING);
  g_main_loop_run(loop);
  fprintf(stderr, "stream starts: %d\n", starts);
  gst_element_set_state(playbin, GST_STATE_NULL);
  gst_object_unref(playbin);
  return 0;
}
