#ifndef QUAVER_CPULSE_H
#define QUAVER_CPULSE_H

/* libpulse with its GLib main-loop adapter, loaded on first use (dlopen of libpulse-mainloop-glib.so.0, which brings
   libpulse.so.0): a daemon that has loaded no track and been asked for no output never maps it. Linked, libpulse and
   what only it brings (libpulsecommon, libsndfile with its codecs, X11 and xcb, libasyncns) were resident from
   start-up on (docs/reliability.md). The types and constants come from libpulse's headers; every call goes through
   the quaver_pa_ functions below, never to a pa_ symbol directly (the program is not linked against libpulse). */
/* C interop: only the PulseAudio wrapper may import this module (docs/ARCHITECTURE.md, "Layers"). */
#include <pulse/pulseaudio.h>
#include <pulse/glib-mainloop.h>

/* Loads the libraries once per process (thread-safe, pthread_once). 1 on success; otherwise quaver_pulse_load_error()
   says why. Every function below may be called only after it returned 1. */
int quaver_pulse_load(void);
const char *quaver_pulse_load_error(void);

/* The functions Quaver uses, each as X(result type, name without pa_, parameters, arguments): the loader finds
   pa_<name> and quaver_pa_<name> calls it. */
#define QUAVER_PULSE_FUNCTIONS(X) \
    X(pa_glib_mainloop *, glib_mainloop_new, (GMainContext *context), (context)) \
    X(void, glib_mainloop_free, (pa_glib_mainloop *loop), (loop)) \
    X(pa_mainloop_api *, glib_mainloop_get_api, (pa_glib_mainloop *loop), (loop)) \
    X(pa_context *, context_new, (pa_mainloop_api *mainloop, const char *client), (mainloop, client)) \
    X(int, context_connect, (pa_context *c, const char *server, pa_context_flags_t flags, const pa_spawn_api *spawn), \
      (c, server, flags, spawn)) \
    X(void, context_disconnect, (pa_context *c), (c)) \
    X(void, context_unref, (pa_context *c), (c)) \
    X(pa_context_state_t, context_get_state, (const pa_context *c), (c)) \
    X(void, context_set_state_callback, (pa_context *c, pa_context_notify_cb_t callback, void *data), (c, callback, data)) \
    X(void, context_set_subscribe_callback, (pa_context *c, pa_context_subscribe_cb_t callback, void *data), \
      (c, callback, data)) \
    X(pa_operation *, context_subscribe, (pa_context *c, pa_subscription_mask_t mask, pa_context_success_cb_t callback, \
      void *data), (c, mask, callback, data)) \
    X(pa_operation *, context_get_sink_info_list, (pa_context *c, pa_sink_info_cb_t callback, void *data), \
      (c, callback, data)) \
    X(pa_operation *, context_get_sink_info_by_index, (pa_context *c, uint32_t index, pa_sink_info_cb_t callback, \
      void *data), (c, index, callback, data)) \
    X(pa_operation *, context_get_sink_input_info_list, (pa_context *c, pa_sink_input_info_cb_t callback, void *data), \
      (c, callback, data)) \
    X(pa_operation *, context_get_sink_input_info, (pa_context *c, uint32_t index, pa_sink_input_info_cb_t callback, \
      void *data), (c, index, callback, data)) \
    X(pa_operation *, context_get_source_output_info_list, (pa_context *c, pa_source_output_info_cb_t callback, \
      void *data), (c, callback, data)) \
    X(pa_operation *, context_get_source_output_info, (pa_context *c, uint32_t index, \
      pa_source_output_info_cb_t callback, void *data), (c, index, callback, data)) \
    X(pa_operation *, context_get_server_info, (pa_context *c, pa_server_info_cb_t callback, void *data), \
      (c, callback, data)) \
    X(pa_operation *, context_move_sink_input_by_name, (pa_context *c, uint32_t index, const char *sink_name, \
      pa_context_success_cb_t callback, void *data), (c, index, sink_name, callback, data)) \
    X(void, operation_unref, (pa_operation *operation), (operation)) \
    X(const char *, proplist_iterate, (const pa_proplist *list, void **state), (list, state)) \
    X(const char *, proplist_gets, (const pa_proplist *list, const char *key), (list, key))

#define QUAVER_PULSE_DECLARE(result, name, parameters, arguments) result quaver_pa_##name parameters;
QUAVER_PULSE_FUNCTIONS(QUAVER_PULSE_DECLARE)
#undef QUAVER_PULSE_DECLARE

#endif
