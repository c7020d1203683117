/// Members that another object contributes to an interface it does not own (the sleep timer and the
/// outputs on `org.quaver.Quaver1`): the owner exports them with its own and signals their changes in
/// its own `PropertiesChanged`.
public protocol InterfacePart: AnyObject {
    var methods: [InterfaceDescription.Method] { get }
    /// Properties whose changes are signalled; each one's value is also in `signalledValues`.
    var properties: [InterfaceDescription.Property] { get }
    /// The current values of `properties`, read when the owner compares them for `PropertiesChanged`.
    var signalledValues: [String: DBusValue] { get }
    /// Set by the owner: called when a value may have changed.
    var valuesChanged: (() -> Void)? { get set }
}
