import CPulse

/// libpulse's main-loop adapter on GLib's default context (`pa_glib_mainloop_new(NULL)`), so libpulse's
/// I/O and timers run on the daemon's loop thread. Freed (`pa_glib_mainloop_free`) when the last context
/// using it is gone: each `PulseContext` keeps it alive.
final class PulseMainLoop {
    let pointer: OpaquePointer

    /// Loads libpulse first, once per process (`quaver_pulse_load`); nil when it cannot be loaded.
    init?() {
        guard quaver_pulse_load() == 1, let pointer = quaver_pa_glib_mainloop_new(nil) else { return nil }
        self.pointer = pointer
    }

    /// Why libpulse could not be loaded (empty while it could).
    static var loadError: String { String(cString: quaver_pulse_load_error()) }

    var api: UnsafeMutablePointer<pa_mainloop_api> { quaver_pa_glib_mainloop_get_api(pointer) }

    deinit { quaver_pa_glib_mainloop_free(pointer) }
}

/// One `pa_context`. Released with `pa_context_disconnect` + `pa_context_unref` in deinit, which must
/// never run inside one of its own callbacks: freeing a context or its loop there aborts in glib-mainloop.c
/// or recurses until the stack overflows. `SoundServerConnection` drops it from a posted task instead.
/// Upstream: no issue found; glib-mainloop.c is unchanged since 2020, so not fixed as of PulseAudio 17.0.
final class PulseContext {
    let pointer: OpaquePointer
    private let loop: PulseMainLoop

    init?(loop: PulseMainLoop, name: String) {
        guard let pointer = quaver_pa_context_new(loop.api, name) else { return nil }
        self.pointer = pointer
        self.loop = loop
    }

    /// Stops every callback into Swift; what is still queued in libpulse then calls nothing.
    func detach() {
        quaver_pa_context_set_state_callback(pointer, nil, nil)
        quaver_pa_context_set_subscribe_callback(pointer, nil, nil)
    }

    deinit {
        detach()
        quaver_pa_context_disconnect(pointer)  // cancels pending operations without calling them
        quaver_pa_context_unref(pointer)
    }
}
