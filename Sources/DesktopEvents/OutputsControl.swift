import DBus
import PublicText

/// The outputs on `org.quaver.Quaver1`: `Outputs`, `a(ssbb)` — each sink's name, its description, whether
/// our music plays on it now, whether it is available — signalled when sinks come, go or change and when
/// the music moves; `ChosenOutput`, `s` (empty: the default sink is followed); and `SetOutput(s name)`
/// (empty: follow the default again; an unknown name is InvalidArgs and changes nothing).
public final class OutputsControl: InterfacePart {
    private let selector: OutputSelector
    public var valuesChanged: (() -> Void)?

    public init(selector: OutputSelector) {
        self.selector = selector
        selector.listChanged = { [weak self] in self?.valuesChanged?() }
    }

    public var properties: [InterfaceDescription.Property] {
        [property("Outputs", "a(ssbb)"), property("ChosenOutput", "s")]
    }

    public var signalledValues: [String: DBusValue] {
        let outputs = selector.outputs.map { entry in
            DBusValue.structure([.string(PublicText.from(entry.name)), .string(PublicText.from(entry.description)),
                                 .boolean(entry.isOurs), .boolean(entry.isAvailable)])
        }
        return ["Outputs": .array(element: "(ssbb)", outputs), "ChosenOutput": .string(PublicText.from(selector.chosen ?? ""))]
    }

    /// SetOutput answers once the sinks are known: at once while the sound server's connection is up, else
    /// when the connection it asks for has listed them (`OutputSelector.whenListed`).
    public var methods: [InterfaceDescription.Method] {
        [InterfaceDescription.Method(name: "SetOutput", inputs: [.init("name", "s")], answeringLater: { [weak self] call, reply in
            guard let self else { throw DBusError.failed("the player is shutting down") }
            let name = call.arguments[0].stringValue ?? ""
            self.selector.whenListed { [weak self] in self?.choose(name, answering: reply) }
        })]
    }

    private func choose(_ name: String, answering reply: PendingReply) {
        do {
            try selector.choose(name)
        } catch {  // the one refusal: no sink of that name
            return reply.fail(.invalidArgs("no sound output named \"\(PublicText.from(name, limit: 200))\"; see the Outputs property"))
        }
        valuesChanged?()
        reply.finish([])
    }

    /// Asking for `Outputs` by name asks for the connection that lists them (made on demand): a client that read
    /// the list before the connection was up hears it in PropertiesChanged once the server has told it. A GetAll
    /// (`quaver status`, polled by status bars) answers what is known and loads nothing.
    private func property(_ name: String, _ type: Signature) -> InterfaceDescription.Property {
        InterfaceDescription.Property(name: name, type: type, get: { [weak self] in
            guard let value = self?.signalledValues[name] else { throw DBusError.failed("the player is shutting down") }
            return value
        }, askedByName: name == "Outputs" ? { [weak self] in self?.selector.connectionNeeded?() } : nil)
    }
}
