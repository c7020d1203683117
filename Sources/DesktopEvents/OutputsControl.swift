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

    public var methods: [InterfaceDescription.Method] {
        [InterfaceDescription.Method(name: "SetOutput", inputs: [.init("name", "s")]) { [weak self] call in
            guard let self else { throw DBusError.failed("the player is shutting down") }
            let name = call.arguments[0].stringValue ?? ""
            do {
                try self.selector.choose(name)
            } catch OutputSelector.Refusal.unknownSink {
                throw DBusError.invalidArgs("no sound output named \"\(PublicText.from(name, limit: 200))\"; see the Outputs property")
            }
            self.valuesChanged?()
            return []
        }]
    }

    private func property(_ name: String, _ type: Signature) -> InterfaceDescription.Property {
        InterfaceDescription.Property(name: name, type: type) { [weak self] in
            guard let value = self?.signalledValues[name] else { throw DBusError.failed("the player is shutting down") }
            return value
        }
    }
}
