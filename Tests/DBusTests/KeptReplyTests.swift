import CDBus
@testable import DBus
import XCTest

/// A GetAll answered from the kept reply (`KeptReply`: a copy of the last one, its fixed-size values written
/// in place) is byte for byte the reply built anew from the same values, addressed to the new call; a changed
/// text, a prepared value made again or a getter that starts or stops failing builds the reply anew.
final class KeptReplyTests: XCTestCase {
    private static let path: ObjectPath = "/org/quaver/Test/kept"
    private static let interface = "org.quaver.Kept"

    /// What the getters give; `flaky` throws while `failing`.
    private final class State {
        var playing = false
        var volume = 1.0
        var position: Int64 = 0
        var title = "One"
        var failing = false
        var metadata = try! PreparedValue(.variantDictionary([
            "xesam:artist": .stringArray(["A", "B"]), "mpris:length": .int64(183_000_000), "xesam:trackNumber": .int32(7)]))
    }

    private let state = State()
    private var serial: UInt32 = 6

    private lazy var object: ExportedObject = {
        let state = state
        return ExportedObject(path: Self.path, interfaces: [
            InterfaceDescription(name: "org.quaver.Other", properties: [
                InterfaceDescription.Property(name: "Other", get: { "other" })]),
            InterfaceDescription(name: Self.interface, properties: [
                InterfaceDescription.Property(name: "Playing", get: { state.playing }),
                InterfaceDescription.Property(name: "Volume", get: { state.volume }, set: { _ in }),
                InterfaceDescription.Property(name: "Position", get: { state.position }),
                InterfaceDescription.Property(name: "Title", get: { state.title }),
                InterfaceDescription.Property(name: "Metadata", type: "a{sv}", get: { state.metadata }),
                InterfaceDescription.Property(name: "Flaky", get: { () throws -> String in
                    guard !state.failing else { throw DBusError.failed("not now") }
                    return "here"
                }),
            ]),
        ])
    }()

    private var kept: KeptReply? { object.keptReplies[1] }

    func testOnlyFixedSizeValuesChangedIsACopyOfTheKeptReplyWithThemWrittenIn() throws {
        try checkGetAll()
        let first = try XCTUnwrap(kept)
        for (playing, volume, position) in [(true, 0.25, Int64(5_000_001)), (false, -0.0, .min), (true, .infinity, .max),
                                             (true, .nan, -1)] {
            (state.playing, state.volume, state.position) = (playing, volume, position)
            try checkGetAll()
            XCTAssertTrue(kept === first, "answered from the kept reply")
        }
    }

    func testAChangedTextOrPreparedValueOrGetterThatFailsBuildsTheReplyAgain() throws {
        try checkGetAll()
        var last = try XCTUnwrap(kept)
        let changes: [() throws -> Void] = [
            { self.state.title = "Two" },
            { self.state.metadata = try PreparedValue(.variantDictionary(["xesam:title": .string("Other")])) },
            { self.state.failing = true },
            { self.state.failing = false },
        ]
        for change in changes {
            try change()
            try checkGetAll()
            let now = try XCTUnwrap(kept)
            XCTAssertFalse(now === last, "built again")
            last = now
            state.position += 1
            try checkGetAll()
            XCTAssertTrue(kept === last, "kept again")
        }
    }

    /// The copy keeps the destination of a caller asking again, and is addressed anew to another (a bus name
    /// of another length too), which it then keeps. (Every call on a bus has a sender; the other tests' calls
    /// have none, as on a connection without a bus.)
    func testACopyIsAddressedToItsCallerWhoeverAskedLast() throws {
        try checkGetAll(caller: ":1.7")
        let first = try XCTUnwrap(kept)
        for caller in [":1.7", ":1.1234", ":1.1234", ":1.8", ":1.7", ":1.7"] {
            state.position += 1
            try checkGetAll(caller: caller)
            XCTAssertTrue(kept === first, "answered from the kept reply")
        }
    }

    func testEachInterfaceKeepsItsOwnReply() throws {
        try checkGetAll()
        try checkGetAll(interface: "org.quaver.Other", [("Other", .string("other"))])
        try checkGetAll(interface: "", currentValues() + [("Other", .string("other"))])
        state.position = 42
        try checkGetAll()
        try checkGetAll(interface: "", currentValues() + [("Other", .string("other"))])
        XCTAssertEqual(object.keptReplies.filter { $0 != nil }.count, 3)
    }

    private func currentValues() -> [(String, DBusValue)] {
        [("Playing", .boolean(state.playing)), ("Volume", .double(state.volume)), ("Position", .int64(state.position)),
         ("Title", .string(state.title)), ("Metadata", state.metadata.value)] + (state.failing ? [] : [("Flaky", .string("here"))])
    }

    /// GetAll of `interface` answers, byte for byte, the reply built from `values` (the current ones by default).
    private func checkGetAll(interface: String = interface, _ values: [(String, DBusValue)]? = nil, caller: String? = nil,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        serial += 1
        let call = try Message.methodCall(destination: "org.quaver.Test", path: Self.path,
                                          interface: StandardInterface.properties, method: "GetAll",
                                          arguments: [.string(interface)])
        dbus_message_set_serial(call.raw, serial)
        dbus_message_set_sender(call.raw, caller)
        guard case .written(let written) = try PropertiesInterface(object: object).getAll(call) else {
            return XCTFail("GetAll did not write its reply", file: file, line: line)
        }
        let entries = Dictionary(uniqueKeysWithValues: values ?? currentValues())
        let built = try call.methodReturn([.variantDictionary(entries)])
        XCTAssertEqual(dbus_message_get_reply_serial(written.raw), serial, file: file, line: line)
        XCTAssertEqual(dbus_message_get_destination(written.raw).map { String(cString: $0) }, caller, file: file, line: line)
        XCTAssertEqual(try written.marshalled(), try built.marshalled(), file: file, line: line)
    }
}
