import CDBus
@testable import DBus
import XCTest

/// GetAll's reply, written property by property into libdbus's iterators, is byte for byte the reply built
/// from the same values as one `a{sv}` (what every other method returns): every type, every nesting, in
/// name order. Checked on the marshalled messages, so a type, a value, an alignment or an order that differs
/// shows.
final class GetAllReplyTests: XCTestCase {
    private static let path: ObjectPath = "/org/quaver/Test/reply"
    private static let interface = "org.quaver.Reply"

    private static let metadata: DBusValue = .variantDictionary([
        "mpris:trackid": .objectPath("/org/quaver/Track/42"), "xesam:title": .string("Ünïcode ✓ title"),
        "xesam:url": .string("file:///music/a%20b.flac"), "mpris:length": .int64(183_000_000),
        "xesam:artist": .stringArray(["A", "B"]), "xesam:genre": .stringArray([]), "xesam:trackNumber": .int32(7),
        "quaver:rating": .double(0.8), "quaver:nested": .variantDictionary(["deeper": .variant(.uint16(3))]),
    ])

    /// Every shape a property can have, MPRIS's Player first.
    private static let values: [(String, Signature, DBusValue)] = [
        ("PlaybackStatus", "s", .string("Playing")), ("LoopStatus", "s", .string("None")), ("Rate", "d", .double(1)),
        ("Shuffle", "b", .boolean(false)), ("Metadata", "a{sv}", metadata), ("Volume", "d", .double(0.25)),
        ("Position", "x", .int64(-5)), ("MinimumRate", "d", .double(0.5)), ("CanGoNext", "b", .boolean(true)),
        ("Byte", "y", .byte(255)), ("Short", "n", .int16(-2)), ("UShort", "q", .uint16(2)), ("UInt", "u", .uint32(9)),
        ("ULong", "t", .uint64(.max)), ("Sig", "g", .signature("a{sv}")), ("Pair", "(id)", .structure([.int32(-1), .double(0.5)])),
        ("Pairs", "a(si)", .array(element: "(si)", [.structure([.string("x"), .int32(1)])])),
        ("Texts", "a{ss}", .dictionary(key: .string, value: .string, [(key: .string("k"), value: .string("v"))])),
        ("Tracks", "ao", .objectPathArray(["/org/quaver/Track/1", "/org/quaver/Track/2"])), ("Empty", "as", .stringArray([])),
        ("Boxed", "v", .variant(.stringArray(["in", "a", "variant"]))), ("Grid", "aai", .array(element: "ai", [
            .array(element: "i", [.int32(1), .int32(2)]), .array(element: "i", [])])),
    ]

    func testTheWrittenReplyIsTheReplyBuiltFromTheValues() throws {
        let object = ExportedObject(path: Self.path, interfaces: [InterfaceDescription(name: Self.interface,
            properties: Self.values.map { name, type, value in InterfaceDescription.Property(name: name, type: type) { value } })])
        let call = try getAllCall()
        guard case .written(let written) = try PropertiesInterface(object: object).getAll(call) else {
            return XCTFail("GetAll did not write its reply")
        }
        let built = try call.methodReturn([.variantDictionary(Dictionary(uniqueKeysWithValues: Self.values.map { ($0.0, $0.2) }))])
        XCTAssertEqual(String(cString: dbus_message_get_signature(written.raw)), "a{sv}")
        XCTAssertEqual(try written.marshalled(), try built.marshalled())
        XCTAssertEqual(try written.arguments(), try built.arguments())
    }

    /// The same values given by typed getters (`b`, `d`, `x`, `s`) and, for every other shape, prepared once
    /// (`PreparedValue`): the reply is the same bytes.
    func testTypedAndPreparedGettersWriteTheSameReply() throws {
        let properties = try Self.values.map { name, type, value -> InterfaceDescription.Property in
            switch value {
            case .boolean(let bool): return InterfaceDescription.Property(name: name, get: { bool })
            case .double(let double): return InterfaceDescription.Property(name: name, get: { double })
            case .int64(let int): return InterfaceDescription.Property(name: name, get: { int })
            case .string(let text): return InterfaceDescription.Property(name: name, get: { text })
            default:
                let prepared = try PreparedValue(value)
                return InterfaceDescription.Property(name: name, type: type, get: { prepared })
            }
        }
        let object = ExportedObject(path: Self.path, interfaces: [InterfaceDescription(name: Self.interface, properties: properties)])
        let call = try getAllCall()
        guard case .written(let written) = try PropertiesInterface(object: object).getAll(call) else {
            return XCTFail("GetAll did not write its reply")
        }
        let built = try call.methodReturn([.variantDictionary(Dictionary(uniqueKeysWithValues: Self.values.map { ($0.0, $0.2) }))])
        XCTAssertEqual(try written.marshalled(), try built.marshalled())
    }

    /// A typed string getter's text with a NUL is refused before its entry is written: the answer is then the
    /// values (which the connection turns into `InvalidArgs`), and no reply is kept.
    func testATypedStringWithANULIsNotWritten() throws {
        let object = ExportedObject(path: Self.path, interfaces: [InterfaceDescription(name: Self.interface, properties: [
            InterfaceDescription.Property(name: "Fine", get: { true }),
            InterfaceDescription.Property(name: "Title", get: { "nul\u{0}inside" }),
        ])])
        guard case .values = try PropertiesInterface(object: object).getAll(try getAllCall()) else {
            return XCTFail("a string with a NUL was written")
        }
        XCTAssertNil(object.keptReplies[0])
    }

    /// Preparing checks what writing checks: a value libdbus would abort on is refused when prepared.
    func testPreparingRefusesWhatWritingRefuses() {
        for bad: DBusValue in [.string("nul\u{0}inside"), .structure([]),
                               .array(element: "s", [.int32(1)]), .variantDictionary(["k": .stringArray(["a", "b\u{0}"])])] {
            XCTAssertThrowsError(try PreparedValue(bad), "\(bad)")
        }
    }

    private func getAllCall() throws -> Message {
        let call = try Message.methodCall(destination: "org.quaver.Test", path: Self.path,
                                          interface: StandardInterface.properties, method: "GetAll",
                                          arguments: [.string(Self.interface)])
        dbus_message_set_serial(call.raw, 7)
        return call
    }
}
