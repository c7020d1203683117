import DBus
import XCTest

/// GetAll writes each value into the reply as its getter gives it, checked as it is written: what it answers
/// must not differ from building the values first — a getter that throws is left out, a value libdbus would
/// abort on makes the whole call InvalidArgs (and the service keeps answering), a large value still arrives.
final class GetAllTests: XCTestCase {
    private static let path: ObjectPath = "/org/quaver/Test/getall"
    private static let interface = "org.quaver.GetAll"

    /// An object whose properties are `values` (a nil getter throws), on the test service's connection.
    private func service(_ values: [(String, Signature, DBusValue?)]) throws -> TestService {
        let service = try TestService()
        let properties = values.map { name, type, value in
            InterfaceDescription.Property(name: name, type: type) {
                guard let value else { throw DBusError.failed("\(name) cannot be read now") }
                return value
            }
        }
        service.connection.export(ExportedObject(path: Self.path, interfaces: [
            InterfaceDescription(name: Self.interface, methods: [], properties: properties)]))
        return service
    }

    private func getAll(_ service: TestService, _ print: String) throws -> String {
        try service.runPython(pythonPrologue + """
        other = dbus.Interface(bus.get_object('org.quaver.Test', '\(Self.path)'), 'org.freedesktop.DBus.Properties')
        \(print)
        print(props.Get('org.quaver.Test', 'Name'))
        """)
    }

    func testEveryShapeArrivesAndAThrowingGetterIsLeftOut() throws {
        let service = try service([
            ("Title", "s", .string("Ünïcode ✓")), ("Gone", "s", nil), ("Count", "u", .uint32(7)),
            ("Meta", "a{sv}", .variantDictionary(["xesam:artist": .stringArray(["A", "B"]), "mpris:length": .int64(5)])),
            ("Path", "o", .objectPath("/org/quaver/Track/1")), ("Pair", "(id)", .structure([.int32(-1), .double(0.5)]))])
        let output = try getAll(service, """
        values = other.GetAll('\(Self.interface)')
        print(sorted(str(k) for k in values.keys()))
        print(values['Title'], int(values['Count']), sorted(str(a) for a in values['Meta']['xesam:artist']),
              int(values['Meta']['mpris:length']), values['Path'], int(values['Pair'][0]), float(values['Pair'][1]))
        """)
        XCTAssertEqual(output, """
        ['Count', 'Meta', 'Pair', 'Path', 'Title']
        Ünïcode ✓ 7 ['A', 'B'] 5 /org/quaver/Track/1 -1 0.5
        quaver

        """)
    }

    /// The bad string is the last of an array inside a dictionary written after other properties: the
    /// message is half written when the check fails.
    func testAValueLibdbusWouldAbortOnMakesTheCallInvalidArgsAndTheServiceLives() throws {
        let service = try service([
            ("A", "s", .string("fine")),
            ("B", "a{sv}", .variantDictionary(["xesam:artist": .stringArray(["ok", "nul\u{0}inside"])])),
            ("C", "u", .uint32(1))])
        let output = try getAll(service, "print(error_of(other.GetAll, '\(Self.interface)'))")
        XCTAssertEqual(output, "org.freedesktop.DBus.Error.InvalidArgs: string contains NUL\nquaver\n")
    }

    func testALargeValueArrivesWhole() throws {
        let paths = try (0..<5_000).map { try ObjectPath("/org/quaver/Track/\($0)") }
        let service = try service([("Tracks", "ao", .objectPathArray(paths)), ("CanEditTracks", "b", .boolean(false))])
        let output = try getAll(service, """
        values = other.GetAll('\(Self.interface)')
        print(len(values['Tracks']), values['Tracks'][-1], bool(values['CanEditTracks']))
        """)
        XCTAssertEqual(output, "5000 /org/quaver/Track/4999 False\nquaver\n")
    }
}
