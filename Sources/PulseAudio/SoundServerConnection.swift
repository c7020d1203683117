import CPulse
import EventLoop

/// A connection to the sound server's native protocol (PulseAudio, or PipeWire through pipewire-pulse)
/// that lists the objects asked for, follows their changes, and survives the server going away.
///
/// libpulse is loaded by the first `start` (`dlopen`, CPulse), not before: a connection made and never started
/// costs nothing of it. Everything runs on `EventLoop.main`. libpulse's callbacks only copy what they were given into Swift
/// values and post it to the loop; the owner's handler runs from that posted task, so it may do anything,
/// even stop this connection. A failed context is detached at once and released from a posted task (never
/// inside its own callback), then a new one connects after a back-off: 0.1 s, doubling up to 5 s.
public final class SoundServerConnection {
    /// Which objects to list and follow (`pa_subscription_mask_t`).
    public struct Interests: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let sinks = Interests(rawValue: 1 << 0)
        public static let playbackStreams = Interests(rawValue: 1 << 1)
        public static let recordingStreams = Interests(rawValue: 1 << 2)
        public static let defaultSink = Interests(rawValue: 1 << 3)
    }

    public static let firstRetryDelay = 0.1
    public static let longestRetryDelay = 5.0

    private let name: String
    private let interests: Interests
    private let onChange: (SoundServerChange) -> Void
    /// Made by the first connection, which loads libpulse.
    private var loop: PulseMainLoop?
    private var context: PulseContext?
    private var retry: LoopSource?
    private var retryDelay = SoundServerConnection.firstRetryDelay
    private var started = false
    /// Whether the last report was `.connected` (nil before the first): each change is reported once.
    private var reportedUp: Bool?
    /// Answers awaited for `moveStream`, oldest first: libpulse answers one context's operations in order.
    private var pendingMoves: [(Bool) -> Void] = []

    /// `name` is the client name the server shows (`application.name`).
    public init(name: String, interests: Interests, onChange: @escaping (SoundServerChange) -> Void) {
        self.name = name
        self.interests = interests
        self.onChange = onChange
    }

    deinit { stop() }

    /// Why libpulse could not be loaded, once `start` found it could not; nothing is ever reported then.
    public private(set) var unavailable: String?

    /// Loads libpulse (the first time) and connects to `PULSE_SERVER` or the default server; never spawns one.
    public func start() {
        guard !started else { return }
        started = true
        connect()
    }

    public func stop() {
        failPendingMoves()
        started = false
        retry = nil
        context = nil  // not inside a libpulse callback: stop() runs from the loop, never from libpulse
        reportedUp = nil
    }

    // MARK: Connection life

    private func connect() {
        retry = nil
        guard started, context == nil, let loop = madeLoop(), let context = PulseContext(loop: loop, name: name) else { return }
        self.context = context
        quaver_pa_context_set_state_callback(context.pointer, { pointer, data in
            SoundServerConnection.from(data).stateChanged(pointer)
        }, me)
        quaver_pa_context_set_subscribe_callback(context.pointer, { pointer, event, index, data in
            SoundServerConnection.from(data).changed(pointer, event, index)
        }, me)
        // NOAUTOSPAWN: following the server must never start one. No NOFAIL: a refused connection fails,
        // and the back-off below retries (NOFAIL only waits for a server announced on D-Bus).
        if quaver_pa_context_connect(context.pointer, nil, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 { lost(context.pointer) }
    }

    /// libpulse's loop adapter; nil, with `unavailable` saying why, when libpulse cannot be loaded.
    private func madeLoop() -> PulseMainLoop? {
        if loop == nil, unavailable == nil {
            loop = PulseMainLoop()
            if loop == nil { unavailable = PulseMainLoop.loadError }
        }
        return loop
    }

    private func stateChanged(_ pointer: OpaquePointer?) {
        guard let context, context.pointer == pointer else { return }
        switch quaver_pa_context_get_state(context.pointer) {
        case PA_CONTEXT_READY: ready(context)
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED: lost(context.pointer)
        default: break
        }
    }

    private func ready(_ context: PulseContext) {
        retryDelay = SoundServerConnection.firstRetryDelay
        report(up: true)
        var mask = PA_SUBSCRIPTION_MASK_NULL.rawValue
        if interests.contains(.sinks) { mask |= PA_SUBSCRIPTION_MASK_SINK.rawValue }
        if interests.contains(.playbackStreams) { mask |= PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue }
        if interests.contains(.recordingStreams) { mask |= PA_SUBSCRIPTION_MASK_SOURCE_OUTPUT.rawValue }
        if interests.contains(.defaultSink) { mask |= PA_SUBSCRIPTION_MASK_SERVER.rawValue }
        let c = context.pointer
        done(quaver_pa_context_subscribe(c, pa_subscription_mask_t(rawValue: mask), nil, nil))
        if interests.contains(.sinks) { done(quaver_pa_context_get_sink_info_list(c, sinkInfo, me)) }
        if interests.contains(.playbackStreams) { done(quaver_pa_context_get_sink_input_info_list(c, playbackInfo, me)) }
        if interests.contains(.recordingStreams) { done(quaver_pa_context_get_source_output_info_list(c, recordingInfo, me)) }
        if interests.contains(.defaultSink) { done(quaver_pa_context_get_server_info(c, serverInfo, me)) }
        // Answered after the lists above (one context's operations are answered in order): marks their end.
        done(quaver_pa_context_get_server_info(c, listingEnded, me))
    }

    /// Called from the context's own state callback (or right after a failed `pa_context_connect`):
    /// the context is detached now and released from a posted task, then a new one is tried later.
    private func lost(_ pointer: OpaquePointer) {
        guard let context, context.pointer == pointer else { return }
        context.detach()
        self.context = nil
        EventLoop.main.post { withExtendedLifetime(context) {} }
        failPendingMoves()
        report(up: false)
        guard started else { return }
        let delay = retryDelay
        retryDelay = min(retryDelay * 2, SoundServerConnection.longestRetryDelay)
        retry = EventLoop.main.schedule(after: delay) { [weak self] in self?.connect() }
    }

    /// Moves the playback stream `index` to the sink named `sinkName` (`pa_context_move_sink_input_by_name`):
    /// the server reroutes it without the player noticing. `done` runs on the loop with whether the server
    /// did it (false when it refused, or no connection is up).
    public func moveStream(_ index: UInt32, toSink sinkName: String, done: @escaping (Bool) -> Void) {
        guard let context, quaver_pa_context_get_state(context.pointer) == PA_CONTEXT_READY,
              let operation = quaver_pa_context_move_sink_input_by_name(context.pointer, index, sinkName, { _, success, data in
                  SoundServerConnection.from(data).moveAnswered(success != 0)
              }, me) else { return EventLoop.main.post { done(false) } }
        pendingMoves.append(done)
        quaver_pa_operation_unref(operation)
    }

    private func moveAnswered(_ success: Bool) {
        guard !pendingMoves.isEmpty else { return }
        let done = pendingMoves.removeFirst()
        EventLoop.main.post { done(success) }
    }

    /// A lost or closed context never answers what it was asked: each waiting caller hears "not done".
    private func failPendingMoves() {
        let waiting = pendingMoves
        pendingMoves = []
        for done in waiting { EventLoop.main.post { done(false) } }
    }

    private func report(up: Bool) {
        guard reportedUp != up else { return }
        reportedUp = up
        deliver(up ? .connected : .disconnected)
    }

    // MARK: Changes

    private func changed(_ pointer: OpaquePointer?, _ event: pa_subscription_event_type_t, _ index: UInt32) {
        guard let context, context.pointer == pointer else { return }
        let c = context.pointer
        let facility = event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
        let removed = event.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue
        switch facility {
        case PA_SUBSCRIPTION_EVENT_SINK.rawValue:
            if removed { deliver(.sinkRemoved(index: index)) }
            else { done(quaver_pa_context_get_sink_info_by_index(c, index, sinkInfo, me)) }
        case PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue:
            if removed { deliver(.playbackStreamRemoved(index: index)) }
            else { done(quaver_pa_context_get_sink_input_info(c, index, playbackInfo, me)) }
        case PA_SUBSCRIPTION_EVENT_SOURCE_OUTPUT.rawValue:
            if removed { deliver(.recordingStreamRemoved(index: index)) }
            else { done(quaver_pa_context_get_source_output_info(c, index, recordingInfo, me)) }
        case PA_SUBSCRIPTION_EVENT_SERVER.rawValue:
            done(quaver_pa_context_get_server_info(c, serverInfo, me))
        default: break
        }
    }

    /// Answers to introspection calls, from the context that made them only.
    fileprivate func received(_ change: SoundServerChange, from pointer: OpaquePointer?) {
        guard let context, context.pointer == pointer else { return }
        deliver(change)
    }

    /// Hands `change` to the owner from a posted task, outside every libpulse callback.
    private func deliver(_ change: SoundServerChange) {
        EventLoop.main.post { [weak self] in
            guard let self, self.started else { return }
            self.onChange(change)
        }
    }

    // MARK: C glue

    private var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    fileprivate static func from(_ data: UnsafeMutableRawPointer?) -> SoundServerConnection {
        Unmanaged<SoundServerConnection>.fromOpaque(data!).takeUnretainedValue()
    }

    /// Operations report through their callbacks; the handle itself is not needed.
    private func done(_ operation: OpaquePointer?) {
        if let operation { quaver_pa_operation_unref(operation) }
    }
}

// libpulse list callbacks: called once per item, then once with `eol` set. Each copies the item
// (valid only during the call) and passes it on; `received` drops answers from a context already replaced.
private let sinkInfo: pa_sink_info_cb_t = { context, info, eol, data in
    guard eol == 0, let sink = info?.pointee else { return }
    let active: UnsafeMutablePointer<pa_sink_port_info>? = sink.active_port  // NULL for sinks without ports
    let port = active.map {
        Port(name: String(cString: $0.pointee.name), type: $0.pointee.type,
             availability: UInt32(exactly: $0.pointee.available).flatMap(Port.Availability.init(rawValue:)) ?? .unknown)
    }
    let description = sink.description.map { String(cString: $0) } ?? ""
    let change = SoundServerChange.sink(Sink(index: sink.index, name: String(cString: sink.name), description: description,
                                             activePort: port))
    SoundServerConnection.from(data).received(change, from: context)
}

private let playbackInfo: pa_sink_input_info_cb_t = { context, info, eol, data in
    guard eol == 0, let stream = info?.pointee else { return }
    let change = SoundServerChange.playbackStream(SoundStream(index: stream.index, device: stream.sink,
                                                         properties: properties(stream.proplist),
                                                         corked: stream.corked != 0))
    SoundServerConnection.from(data).received(change, from: context)
}

private let recordingInfo: pa_source_output_info_cb_t = { context, info, eol, data in
    guard eol == 0, let stream = info?.pointee else { return }
    let change = SoundServerChange.recordingStream(SoundStream(index: stream.index, device: stream.source,
                                                          properties: properties(stream.proplist),
                                                          corked: stream.corked != 0))
    SoundServerConnection.from(data).received(change, from: context)
}

private let listingEnded: pa_server_info_cb_t = { context, _, data in
    SoundServerConnection.from(data).received(.listed, from: context)
}

private let serverInfo: pa_server_info_cb_t = { context, info, data in
    guard let name = info?.pointee.default_sink_name else { return }
    SoundServerConnection.from(data).received(.defaultSink(name: String(cString: name)), from: context)
}

/// The string entries of a `pa_proplist` (`pa_proplist_iterate`, `pa_proplist_gets`).
private func properties(_ list: OpaquePointer?) -> [String: String] {
    guard let list else { return [:] }
    var entries: [String: String] = [:]
    var state: UnsafeMutableRawPointer?
    while let key = quaver_pa_proplist_iterate(list, &state) {
        if let value = quaver_pa_proplist_gets(list, key) { entries[String(cString: key)] = String(cString: value) }
    }
    return entries
}
