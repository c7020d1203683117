import CGStreamer
import CGStreamerLibraries
import CGLib

/// A `GstMessage` we hold a reference to; `gst_message_unref` when released.
public final class Message {
    let pointer: UnsafeMutablePointer<GstMessage>

    /// Wraps a message owned by someone else (a bus watch), taking our own reference (`gst_message_ref`).
    init(borrowing pointer: UnsafeMutablePointer<GstMessage>) {
        self.pointer = gst_message_ref(pointer)
    }

    init(owning pointer: UnsafeMutablePointer<GstMessage>) { self.pointer = pointer }

    deinit { gst_message_unref(pointer) }

    /// The message, decoded into what Quaver reacts to.
    public var kind: MessageKind {
        switch pointer.pointee.type {
        case GST_MESSAGE_EOS: return .endOfStream
        case GST_MESSAGE_ERROR: return .error(parseError(gst_message_parse_error))
        case GST_MESSAGE_WARNING: return .warning(parseError(gst_message_parse_warning))
        case GST_MESSAGE_TAG: return .tags(parseTags())
        case GST_MESSAGE_BUFFERING: return .buffering(percent: parseBuffering())
        case GST_MESSAGE_ASYNC_DONE: return .asyncDone
        case GST_MESSAGE_DURATION_CHANGED: return .durationChanged
        case GST_MESSAGE_STREAM_START: return .streamStart
        case GST_MESSAGE_REQUEST_STATE: return .requestState(parseRequestedState())
        case GST_MESSAGE_STATE_CHANGED: return .stateChanged
        case GST_MESSAGE_ELEMENT: return parseElementMessage()
        default: return .other
        }
    }

    /// The object that posted the message (`GST_MESSAGE_SRC`).
    public var source: UnsafeMutablePointer<GstObject>? { pointer.pointee.src }

    /// `gst_object_get_name` of the source.
    public var sourceName: String { source.map(objectName) ?? "" }

    /// Whether the source is a sink element (`GST_ELEMENT_FLAG_SINK`): sinks post TAG messages in
    /// stream order, after the stream's STREAM_START, unlike demuxers which read ahead.
    public var isFromSink: Bool {
        guard let source, g_type_check_instance_is_a(
            UnsafeMutableRawPointer(source).assumingMemoryBound(to: GTypeInstance.self),
            gst_element_get_type()) != 0 else { return false }
        return source.pointee.flags & GST_ELEMENT_FLAG_SINK.rawValue != 0
    }

    /// `gst_message_new_error`, for tests of message handling.
    public static func error(from element: Element, _ error: GStreamerError) -> Message {
        let domain: GQuark
        switch error.domain {
        case .core: domain = gst_core_error_quark()
        case .library: domain = gst_library_error_quark()
        case .resource: domain = gst_resource_error_quark()
        case .stream: domain = gst_stream_error_quark()
        case .other(let name): domain = g_quark_from_string(name)
        }
        let gerror = g_error_new_literal(domain, error.code, error.message)
        defer { g_error_free(gerror) }
        let source = UnsafeMutableRawPointer(element.pointer).assumingMemoryBound(to: GstObject.self)
        return Message(owning: gst_message_new_error(source, gerror, error.debug))
    }

    /// `gst_message_new_request_state`, for tests of message handling.
    public static func requestState(from element: Element, _ state: State) -> Message {
        let source = UnsafeMutableRawPointer(element.pointer).assumingMemoryBound(to: GstObject.self)
        return Message(owning: gst_message_new_request_state(source, state.raw))
    }

    private typealias ErrorParser = (UnsafeMutablePointer<GstMessage>?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?,
                                     UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?) -> Void

    private func parseError(_ parse: ErrorParser) -> GStreamerError {
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        parse(pointer, &error, &debug)
        guard let error else { return GStreamerError(domain: .core, code: 0, message: "unknown error") }
        return GStreamerError(taking: error, debug: debug)
    }

    /// `gst_message_parse_tag`; the list is ours to unref.
    private func parseTags() -> TagList {
        var list: UnsafeMutablePointer<GstTagList>?
        gst_message_parse_tag(pointer, &list)
        return TagList(owning: list ?? gst_tag_list_new_empty())
    }

    private func parseBuffering() -> Int {
        var percent: gint = 0
        gst_message_parse_buffering(pointer, &percent)
        return Int(percent)
    }

    private func parseRequestedState() -> State {
        var state = GST_STATE_NULL
        gst_message_parse_request_state(pointer, &state)
        return State(state)
    }

    /// Element messages: only "missing-plugin" (`gst_is_missing_plugin_message`) matters to us.
    private func parseElementMessage() -> MessageKind {
        guard quaver_gst_is_missing_plugin_message(pointer) != 0 else { return .other }
        guard let text = quaver_gst_missing_plugin_message_get_description(pointer) else { return .missingPlugin("") }
        defer { g_free(text) }
        return .missingPlugin(String(cString: text))
    }
}

/// The bus messages Quaver handles (`GstMessageType`), with their parsed contents.
public enum MessageKind {
    case endOfStream
    case error(GStreamerError)
    case warning(GStreamerError)
    case tags(TagList)
    case buffering(percent: Int)
    case asyncDone
    case durationChanged
    case streamStart
    case requestState(State)
    case stateChanged
    /// A decoder or demuxer is missing; the text names what (`gst_missing_plugin_message_get_description`).
    case missingPlugin(String)
    case other
}
