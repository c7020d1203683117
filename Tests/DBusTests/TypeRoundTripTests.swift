@testable import DBus
import EventLoop
import XCTest

/// Every D-Bus type and nesting, through real messages, decoded exactly on our side and echoed back.
final class TypeRoundTripTests: XCTestCase {
    /// python3-dbus sends each value to `Record(v)` (we assert the exact Swift value) and to `Echo(v)`
    /// (python asserts types, container signatures and values came back unchanged).
    func testPythonClientValuesDecodeExactlyAndEchoUnchanged() throws {
        let service = try TestService()
        let output = try service.runPython(pythonPrologue + """
        values = [
            dbus.Byte(200), dbus.Boolean(True), dbus.Int16(-300), dbus.UInt16(65000), dbus.Int32(-70000),
            dbus.UInt32(4000000000), dbus.Int64(-2**40), dbus.UInt64(2**63 + 5), dbus.Double(2.5),
            dbus.String('h\\u00e9llo \\u266a'), dbus.ObjectPath('/a/b_c'), dbus.Signature('a{sv}(ii)'),
            dbus.Array([dbus.Int32(1), dbus.Int32(2)], signature='i'), dbus.Array([], signature='s'),
            dbus.Array([dbus.String('a'), dbus.String(''), dbus.String('\\u266a')], signature='s'),
            dbus.Array([dbus.ObjectPath('/a'), dbus.ObjectPath('/b/c')], signature='o'), dbus.Array([], signature='o'),
            dbus.Array([dbus.Byte(0), dbus.Byte(255)], signature='y'),
            dbus.Dictionary({'a': dbus.Int32(1), 'b': dbus.String('x')}, signature='sv'),
            dbus.Dictionary({dbus.Int32(7): dbus.Array([dbus.String('p')], signature='s')}, signature='ias'),
            dbus.Struct((dbus.Int32(1), dbus.String('s'), dbus.Array([dbus.Double(1.5)], signature='d')), signature='isad'),
            dbus.Array([dbus.Struct((dbus.Int32(1), dbus.String('a')), signature='is')], signature='(is)'),
            dbus.Array([dbus.String('x'), dbus.Int32(3)], signature='v'),
            dbus.Dictionary({'meta': dbus.Dictionary({'n': dbus.Int64(5)}, signature='sv')}, signature='sv'),
            dbus.String('deep', variant_level=2),
        ]
        def same(a, b):
            if type(a) is not type(b):
                return False
            if not isinstance(a, tuple) and getattr(a, 'signature', None) != getattr(b, 'signature', None):
                return False  # containers keep their element signature; python leaves a received struct's unset
            if isinstance(a, dict):
                return list(a.keys()) == list(b.keys()) and all(same(a[k], b[k]) for k in a)
            if isinstance(a, (list, tuple)):
                return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
            return a == b
        for v in values:
            test.Record(v)
            back = test.Echo(v)
            if not same(v, back):
                print('MISMATCH', repr(v), repr(back))
        print('done')
        """)
        XCTAssertEqual(output, "done\n")
        let expected: [DBusValue] = [
            .byte(200), .boolean(true), .int16(-300), .uint16(65000), .int32(-70000),
            .uint32(4_000_000_000), .int64(-(1 << 40)), .uint64((1 << 63) + 5), .double(2.5),
            .string("héllo ♪"), .objectPath("/a/b_c"), .signature("a{sv}(ii)"),
            .array(element: "i", [.int32(1), .int32(2)]), .array(element: "s", []),
            .stringArray(["a", "", "♪"]), .array(element: "o", [.objectPath("/a"), .objectPath("/b/c")]),
            .array(element: "o", []),
            .array(element: "y", [.byte(0), .byte(255)]),
            .dictionary(key: "s", value: "v", [(.string("a"), .variant(.int32(1))), (.string("b"), .variant(.string("x")))]),
            .dictionary(key: "i", value: "as", [(.int32(7), .stringArray(["p"]))]),
            .structure([.int32(1), .string("s"), .array(element: "d", [.double(1.5)])]),
            .array(element: "(is)", [.structure([.int32(1), .string("a")])]),
            .array(element: "v", [.variant(.string("x")), .variant(.int32(3))]),
            .variantDictionary(["meta": .variantDictionary(["n": .int64(5)])]),
            .variant(.string("deep")),
        ].map { .variant($0) }
        XCTAssertEqual(service.recorded.count, expected.count)
        for (got, want) in zip(service.recorded, expected) { XCTAssertEqual(got, want) }
    }

    /// Our own Connection as the client, from a second connection in the same process (asynchronous calls,
    /// since a blocking call would stop the loop that serves it).
    func testOwnClientEchoesEveryShape() throws {
        let service = try TestService()
        let client = try Connection(address: service.bus.address)
        let values: [DBusValue] = [
            .byte(1), .boolean(false), .int16(.min), .uint16(.max), .int32(.min), .uint32(.max),
            .int64(.min), .uint64(.max), .double(-0.25), .string(""), .string("ünïcode ♫"),
            .objectPath("/"), .signature(""), .signature("a(oa{sv})"),
            .array(element: "ay", [.array(element: "y", [.byte(1)]), .array(element: "y", [])]),
            .dictionary(key: "o", value: "(bd)", [(.objectPath("/x"), .structure([.boolean(true), .double(1)]))]),
            .dictionary(key: "s", value: "v", []),
            .structure([.variant(.variant(.variant(.uint16(9)))), .array(element: "v", [])]),
            .variantDictionary(["xesam:artist": .stringArray(["A", "B"]), "mpris:length": .int64(123_456)]),
        ]
        var replies: [Result<[DBusValue], DBusError>] = []
        for value in values {
            client.call(destination: TestService.name, path: TestService.path, interface: TestService.interface,
                        method: "Echo", arguments: [.variant(value)]) { replies.append($0) }
        }
        XCTAssertTrue(EventLoop.main.run(until: { replies.count == values.count }, timeout: 20))
        for (reply, value) in zip(replies, values) {
            XCTAssertEqual(try reply.get(), [.variant(value)])
        }
    }

    func testSignatureOfValuesAndCheckedReplies() throws {
        let value = DBusValue.structure([.int32(1), .variantDictionary(["a": .boolean(true)]), .stringArray([])])
        XCTAssertEqual(value.signature, "(ia{sv}as)")
        XCTAssertEqual([DBusValue.string("x"), .uint32(2)].signature, "su")
        XCTAssertEqual(try [DBusValue.string("x")].checked("s"), [.string("x")])
        XCTAssertThrowsError(try [DBusValue.string("x")].checked("i")) { error in
            XCTAssertEqual(error as? DBusError, .invalidArgs("expected signature 'i', got 's'"))
        }
    }

    /// The checks before marshalling compare signatures without building them: every value against every
    /// signature must give the answer that comparing the built text gives.
    func testSignatureMatchingAgreesWithTheSignatureText() {
        let values: [DBusValue] = [
            .int32(1), .string("s"), .variant(.int32(1)), .stringArray([]), .stringArray(["a"]),
            .array(element: "as", [.stringArray(["a"])]), .array(element: "(is)", []),
            .variantDictionary(["k": .int32(1)]), .dictionary(key: "s", value: "i", []),
            .dictionary(key: "o", value: "a{sv}", []), .structure([.int32(1), .string("s")]),
            .structure([.string("s"), .int32(1)]), .structure([.structure([.int32(1)]), .stringArray([])]),
            .array(element: "a{sv}", [.variantDictionary([:])]),
        ]
        let signatures = values.map(\.signatureText) + ["", "a", "a{", "a{s", "a{sv", "(i", "(is", "(is)x", "ai", "aas",
                                                        "a(si)", "a{si}", "a{sv}}", "((i)as", "((i)ai)", "v"]
        for value in values {
            for signature in signatures {
                XCTAssertEqual(value.hasSignature(signature), value.signatureText == signature,
                               "\(value.signatureText) against '\(signature)'")
            }
        }
    }

    func testAccessors() {
        let dictionary = DBusValue.variantDictionary(["title": .string("T"), "n": .int32(3), "tags": .stringArray(["a"])])
        XCTAssertEqual(dictionary.dictionaryValue?["title"]?.stringValue, "T")
        XCTAssertEqual(dictionary.dictionaryValue?["n"]?.int64Value, 3)
        XCTAssertEqual(dictionary.dictionaryValue?["tags"]?.stringArrayValue, ["a"])
        XCTAssertEqual(DBusValue.variant(.double(0.5)).doubleValue, 0.5)
        XCTAssertEqual(DBusValue.boolean(true).boolValue, true)
        XCTAssertNil(DBusValue.string("1").int64Value)
        XCTAssertNil(DBusValue.uint64(.max).int64Value)
    }
}
