import CPulse
import Glibc
import Logging

/// Watches the sound server's sinks and our streams through libpulse's introspection API on our GLib
/// loop (`pa_glib_mainloop`), and reports them as `SoundServerEvent`s.
///
/// Why libpulse: GStreamer's device monitor sees sinks come and go but not port changes on one sink
/// (headphones unplugged → speakers), which libpulse reports (PLATFORM.md, "Sound server"); PipeWire
/// serves the same API through pipewire-pulse. Callbacks run on the loop thread (GLib main context).
///
/// Our streams are the sink inputs with application.process.id = our pid and media.role = music
/// (what the engine's pulsesink sets), so the pause decision follows whatever sink they play on.
public final class OutputDeviceMonitor {
    private let processID: String
    private let onEvent: (SoundServerEvent) -> Void
    private let log: Logger
    private var mainloop: OpaquePointer?
    private var context: OpaquePointer?
    private var toldUnavailable = false

    public init(processID: Int32 = getpid(), log: Logger, onEvent: @escaping (SoundServerEvent) -> Void) {
        self.processID = String(processID)
        self.log = log
        self.onEvent = onEvent
    }

    deinit { stop() }

    /// Connects (PULSE_SERVER or the default server), lists sinks, our streams and the default sink,
    /// then follows their changes. Reconnects when the server goes away and comes back.
    public func start() {
        guard context == nil else { return }
        if mainloop == nil { mainloop = pa_glib_mainloop_new(nil) }
        let api = pa_glib_mainloop_get_api(mainloop)
        guard let context = pa_context_new(api, "Quaver output monitor") else { return }
        self.context = context
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_context_set_state_callback(context, { context, data in
            Unmanaged<OutputDeviceMonitor>.fromOpaque(data!).takeUnretainedValue().stateChanged(context!)
        }, me)
        pa_context_set_subscribe_callback(context, { _, event, index, data in
            Unmanaged<OutputDeviceMonitor>.fromOpaque(data!).takeUnretainedValue().changed(event, index)
        }, me)
        // NOFAIL: wait for a server that is not there yet (started after us) instead of failing.
        // NOAUTOSPAWN: watching outputs must never start a sound server of its own.
        pa_context_connect(context, nil, pa_context_flags_t(PA_CONTEXT_NOFAIL.rawValue | PA_CONTEXT_NOAUTOSPAWN.rawValue), nil)
    }

    public func stop() {
        if let context {
            pa_context_set_state_callback(context, nil, nil)
            pa_context_set_subscribe_callback(context, nil, nil)
            pa_context_disconnect(context)  // cancels pending operations without calling them
            pa_context_unref(context)
            self.context = nil
        }
        if let mainloop {
            pa_glib_mainloop_free(mainloop)
            self.mainloop = nil
        }
    }

    private var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private func stateChanged(_ context: OpaquePointer) {
        switch pa_context_get_state(context) {
        case PA_CONTEXT_READY:
            toldUnavailable = false
            let mask = PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue
                | PA_SUBSCRIPTION_MASK_SERVER.rawValue
            done(pa_context_subscribe(context, pa_subscription_mask_t(rawValue: mask), nil, nil))
            done(pa_context_get_sink_info_list(context, sinkInfo, me))
            done(pa_context_get_sink_input_info_list(context, streamInfo, me))
            done(pa_context_get_server_info(context, serverInfo, me))
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            if !toldUnavailable {
                log.info("sound server connection lost: output changes are not followed until it is back")
            }
            toldUnavailable = true
            stop()
            start()
        default: break
        }
    }

    private func changed(_ event: pa_subscription_event_type_t, _ index: UInt32) {
        guard let context else { return }
        let facility = event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
        let removed = event.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue
        switch facility {
        case PA_SUBSCRIPTION_EVENT_SINK.rawValue:
            if removed { onEvent(.sinkRemoved(index: index)) }
            else { done(pa_context_get_sink_info_by_index(context, index, sinkInfo, me)) }
        case PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue:
            if removed { onEvent(.streamRemoved(index: index)) }
            else { done(pa_context_get_sink_input_info(context, index, streamInfo, me)) }
        case PA_SUBSCRIPTION_EVENT_SERVER.rawValue:
            done(pa_context_get_server_info(context, serverInfo, me))
        default: break
        }
    }

    fileprivate func received(_ sink: pa_sink_info) {
        let port = sink.active_port.map {
            PortInfo(name: String(cString: $0.pointee.name), kind: PortInfo.Kind(rawValue: $0.pointee.type) ?? .unknown)
        }
        onEvent(.sink(SinkInfo(index: sink.index, name: String(cString: sink.name), activePort: port)))
    }

    fileprivate func received(_ stream: pa_sink_input_info) {
        guard property(stream.proplist, "application.process.id") == processID,
              property(stream.proplist, "media.role") == "music" else { return }
        onEvent(.stream(index: stream.index, sink: stream.sink))
    }

    fileprivate func received(_ server: pa_server_info) {
        if let name = server.default_sink_name { onEvent(.defaultSink(name: String(cString: name))) }
    }

    private func property(_ list: OpaquePointer?, _ key: String) -> String? {
        pa_proplist_gets(list, key).map { String(cString: $0) }
    }

    /// Operations report through their callbacks; the handle itself is not needed.
    private func done(_ operation: OpaquePointer?) {
        if let operation { pa_operation_unref(operation) }
    }
}

// libpulse list callbacks: called once per item, then once with `eol` set.
private let sinkInfo: pa_sink_info_cb_t = { _, info, eol, data in
    guard eol == 0, let info else { return }
    Unmanaged<OutputDeviceMonitor>.fromOpaque(data!).takeUnretainedValue().received(info.pointee)
}

private let streamInfo: pa_sink_input_info_cb_t = { _, info, eol, data in
    guard eol == 0, let info else { return }
    Unmanaged<OutputDeviceMonitor>.fromOpaque(data!).takeUnretainedValue().received(info.pointee)
}

private let serverInfo: pa_server_info_cb_t = { _, info, data in
    guard let info else { return }
    Unmanaged<OutputDeviceMonitor>.fromOpaque(data!).takeUnretainedValue().received(info.pointee)
}
