import DBus
import XCTest

/// Properties and every named error, as an independent python3-dbus client sees them.
final class PropertiesAndErrorsTests: XCTestCase {
    func testGetGetAllAndSet() throws {
        let service = try TestService()
        let output = try service.runPython(pythonPrologue + """
        print(props.Get('org.quaver.Test', 'Name'))
        print(sorted(str(k) for k in props.GetAll('org.quaver.Test').keys()))
        print(list(props.GetAll('org.quaver.Test')['Tags']))
        props.Set('org.quaver.Test', 'Volume', dbus.Double(0.75))
        print(props.Get('org.quaver.Test', 'Volume'))
        props.Set('', 'Count', dbus.Int32(9))
        print(props.Get('', 'Count'))
        print(len(props.GetAll('')))
        """)
        XCTAssertEqual(output, """
        quaver
        ['Count', 'Name', 'Tags', 'Volume']
        [dbus.String('a'), dbus.String('b')]
        0.75
        9
        4

        """)
        XCTAssertEqual(service.volume, 0.75)
        XCTAssertEqual(service.count, 9)
    }

    func testBadCallsGetNamedErrorsAndServiceKeepsAnswering() throws {
        let service = try TestService()
        let output = try service.runPython(pythonPrologue + """
        N, P, I, PROPS = 'org.quaver.Test', '/org/quaver/Test', 'org.quaver.Test', 'org.freedesktop.DBus.Properties'
        call = bus.call_blocking
        print(error_of(call, N, P, I, 'Echo', 's', ['x']))
        print(error_of(call, N, P, I, 'Nope', '', []))
        print(error_of(call, N, P, 'org.quaver.Nope', 'Echo', 'v', [1]))
        print(error_of(call, N, '/nope', I, 'Echo', 'v', [1]))
        print(error_of(props.Get, I, 'Nope'))
        print(error_of(props.Get, 'org.quaver.Nope', 'Name'))
        print(error_of(props.GetAll, 'org.quaver.Nope'))
        print(error_of(props.Set, I, 'Name', 'x'))
        print(error_of(props.Set, I, 'Volume', dbus.String('loud')))
        print(error_of(props.Set, I, 'Volume', dbus.Dictionary({'a': 1}, signature='sv')))
        print(error_of(props.Set, I, 'Volume', dbus.Double(1.0, variant_level=2)))
        print(error_of(props.Set, I, 'Count', dbus.Int32(-1)))
        print(error_of(call, N, P, PROPS, 'Get', 's', ['x']))
        print(error_of(call, N, P, PROPS, 'Set', 'ssi', [I, 'Count', 3]))
        print(error_of(props.Get, I, 'Broken'))
        print(error_of(props.Get, I, 'Mistyped'))
        print(error_of(test.Fail))
        print(error_of(test.WrongReply))
        print(error_of(call, N, P, 'org.freedesktop.DBus.Introspectable', 'Introspect', 's', ['x']))
        print(call(N, P, None, 'Concat', 'ss', ['a', 'b']))
        print(len(call(N, P, 'org.freedesktop.DBus.Peer', 'GetMachineId', '', [])))
        call(N, P, 'org.freedesktop.DBus.Peer', 'Ping', '', [])
        print(test.Concat('still ', 'answering'))
        """)
        let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        XCTAssertEqual(output.split(separator: "\n").map(String.init), [
            "\(invalidArgs): Echo expects signature 'v', got 's'",
            "org.freedesktop.DBus.Error.UnknownMethod: No method Nope in org.quaver.Test at /org/quaver/Test",
            "org.freedesktop.DBus.Error.UnknownInterface: No interface org.quaver.Nope at /org/quaver/Test",
            "org.freedesktop.DBus.Error.UnknownObject: No object at path /nope",
            "org.freedesktop.DBus.Error.UnknownProperty: No property Nope in org.quaver.Test",
            "org.freedesktop.DBus.Error.UnknownInterface: No interface org.quaver.Nope at /org/quaver/Test",
            "org.freedesktop.DBus.Error.UnknownInterface: No interface org.quaver.Nope at /org/quaver/Test",
            "org.freedesktop.DBus.Error.PropertyReadOnly: Property Name is read-only",
            "\(invalidArgs): Property Volume has type 'd', got 's'",
            "\(invalidArgs): Property Volume has type 'd', got 'a{sv}'",
            "\(invalidArgs): Property Volume has type 'd', got 'v'",
            "\(invalidArgs): Count must be >= 0",
            "\(invalidArgs): Get expects signature 'ss', got 's'",
            "\(invalidArgs): Set expects signature 'ssv', got 'ssi'",
            "org.freedesktop.DBus.Error.Failed: getter failed",
            "org.freedesktop.DBus.Error.Failed: Property Mistyped produced 'i', declared 's'",
            "org.quaver.Error.Custom: custom failure",
            "org.freedesktop.DBus.Error.Failed: WrongReply produced 's' instead of 'i'",
            "\(invalidArgs): Introspect expects signature '', got 's'",
            "ab",
            "32",
            "still answering",
        ])
        XCTAssertEqual(service.volume, 0.5)
        XCTAssertEqual(service.count, 1)
    }

    /// Bytes that python3-dbus and libdbus refuse to build, written on a raw socket: the bus daemon
    /// drops the sender, the message never reaches us, and the service keeps answering.
    func testMalformedMessagesOnTheWireNeverReachTheService() throws {
        let service = try TestService()
        let socketPath = service.bus.directory.path + "/bus"
        let output = try service.runPython(rawClient + """
        bad_utf8 = pad(s_(b'\\xff\\xfe'), 4) + s_(b'ok')
        print(send_raw('/org/quaver/Test', 'org.quaver.Test', 'Concat', 'org.quaver.Test', 'ss', bad_utf8))
        print(send_raw('/org//quaver', 'org.quaver.Test', 'Echo', 'org.quaver.Test', 'v', b'\\x01s\\x00\\x00' + s_(b'x')))
        print(send_raw('/org/quaver/Test', 'org.quaver.Test', 'Concat', 'org.quaver.Test', 'ss',
                       pad(s_(b'fine '), 4) + s_(b'raw')))
        """, timeout: 60, arguments: [socketPath])
        XCTAssertEqual(output, "disconnected\ndisconnected\nreply\n")
        let after = try service.runPython(pythonPrologue + "print(test.Concat('a', 'b'))")
        XCTAssertEqual(after, "ab\n")
    }
}

/// A minimal D-Bus client on a raw socket (EXTERNAL auth, Hello, one hand-marshalled call), able to
/// send what no library would: invalid UTF-8, invalid object paths.
private let rawClient = """
import os, socket, struct, sys
def pad(b, n): return b + b'\\0' * ((-len(b)) % n)
def s_(t): return struct.pack('<I', len(t)) + t + b'\\0'
def g_(t): return bytes([len(t)]) + t + b'\\0'
def field(code, sig, payload): return bytes([code]) + g_(sig) + payload
def message(serial, path, iface, member, dest, sig, body):
    fields = [field(1, b'o', s_(path.encode())), field(2, b's', s_(iface.encode())),
              field(3, b's', s_(member.encode())), field(6, b's', s_(dest.encode()))]
    if sig: fields.append(field(8, b'g', g_(sig.encode())))
    arr = b''
    for f in fields: arr = pad(arr, 8) + f
    head = b'l' + bytes([1, 0, 1]) + struct.pack('<III', len(body), serial, len(arr)) + arr
    return pad(head, 8) + body
def send_raw(path, iface, member, dest, sig, body):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(sys.argv[1])
    sock.sendall(b'\\0AUTH EXTERNAL ' + str(os.getuid()).encode().hex().encode() + b'\\r\\n')
    assert sock.recv(4096).startswith(b'OK')
    sock.sendall(b'BEGIN\\r\\n')
    sock.sendall(message(1, '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'Hello', 'org.freedesktop.DBus', '', b''))
    sock.sendall(message(2, path, iface, member, dest, sig, body))
    sock.settimeout(10)
    data = b''
    while True:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            return 'no answer'
        if not chunk:
            return 'disconnected'
        data += chunk
        if b'fine raw' in data:
            return 'reply'

"""
