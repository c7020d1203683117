import DBus
import EventLoop
import TestSupport
import XCTest

/// Signals we emit, as an independent client receives them, and calls and signals to and from another peer.
final class SignalsAndPeersTests: XCTestCase {
    func testPropertiesChangedAndCustomSignalReachAPythonListener() throws {
        let service = try TestService()
        let listener = try service.startPythonListener(quittingAfter: 2, """
        def on_props(iface, changed, invalidated):
            items = ','.join('%s=%s' % (k, changed[k]) for k in sorted(changed))
            note('changed %s %s [%s] %s' % (iface, items, ','.join(invalidated), changed.signature))
        def on_custom(text, number):
            note('custom %s %d %s' % (text, number, type(number).__name__))
        bus.add_signal_receiver(on_props, 'PropertiesChanged', 'org.freedesktop.DBus.Properties', 'org.quaver.Test', '/org/quaver/Test')
        bus.add_signal_receiver(on_custom, 'Custom', 'org.quaver.Test', 'org.quaver.Test', '/org/quaver/Test')
        print('ready', flush=True)
        """)
        XCTAssertTrue(pump(until: { listener.standardOutput.contains("ready") }, timeout: 20), listener.standardError)
        try service.connection.emitPropertiesChanged(path: TestService.path, interface: TestService.interface,
                                                      changed: ["Volume": .double(0.25), "Name": .string("q")],
                                                      invalidated: ["Tags"])
        try service.connection.emitSignal(path: TestService.path, interface: TestService.interface, name: "Custom",
                                          arguments: [.string("hi"), .int32(7)])
        XCTAssertTrue(pump(until: { !listener.isRunning }, timeout: 30))
        XCTAssertEqual(listener.standardOutput, """
        ready
        changed org.quaver.Test Name=q,Volume=0.25 [Tags] sv
        custom hi 7 Int32

        """, listener.standardError)
    }

    /// A reply of 50 000 strings is built off the loop; a signal emitted after it, while it is still being
    /// built, must not overtake it, and a large signal keeps its place among small ones too.
    func testLargeMessagesKeepTheirPlaceAmongWhatIsSent() throws {
        let service = try TestService()
        let client = try service.startPythonListener(quittingAfter: 5, """
        def on_custom(text, number): note('custom %s %d' % (text, number))
        bus.add_signal_receiver(on_custom, 'Custom', 'org.quaver.Test', 'org.quaver.Test', '/org/quaver/Test')
        bus.add_signal_receiver(lambda texts: note('big %d %s' % (len(texts), texts[-1])), 'Big', 'org.quaver.Test',
                                'org.quaver.Test', '/org/quaver/Test')
        test = dbus.Interface(bus.get_object('org.quaver.Test', '/org/quaver/Test'), 'org.quaver.Test')
        def ask():
            test.ManyThenSignal(dbus.UInt32(50000), reply_handler=lambda texts: note('reply %d %s' % (len(texts), texts[-1])),
                                error_handler=lambda e: note('error %s' % e))
            print('asked', flush=True)
        GLib.idle_add(ask)
        """)
        XCTAssertTrue(pump(until: { client.standardOutput.contains("custom after") }, timeout: 20), client.standardError)
        let texts = (0..<20_000).map { "big \($0)" }
        try service.connection.emitSignal(path: TestService.path, interface: TestService.interface, name: "Custom",
                                          arguments: [.string("before"), .int32(1)])
        try service.connection.emitSignal(path: TestService.path, interface: "org.quaver.Test", name: "Big",
                                          arguments: [.stringArray(texts)])
        try service.connection.emitSignal(path: TestService.path, interface: TestService.interface, name: "Custom",
                                          arguments: [.string("behind"), .int32(2)])
        XCTAssertTrue(pump(until: { !client.isRunning }, timeout: 30))
        XCTAssertEqual(client.standardOutput, """
        asked
        reply 50000 text 49999
        custom after 50000
        custom before 1
        big 20000 big 19999
        custom behind 2

        """, client.standardError)
    }

    func testCallsAndSignalsWithAnotherPeer() throws {
        let service = try TestService()
        let connection = service.connection
        var owners: [String?] = []
        let ownerWatch = try connection.watchNameOwner("org.quaver.Peer") { owners.append($0) }
        var ticks: [Signal] = []
        var allTicks = 0
        let fromPeer = try connection.subscribe(rule: MatchRule(sender: "org.quaver.Peer", interface: "org.quaver.Peer",
                                                                member: "Tick")) { ticks.append($0) }
        let fromOther = try connection.subscribe(rule: MatchRule(sender: "org.quaver.Other", member: "Tick")) { _ in
            XCTFail("a subscription to another sender received the peer's signal")
        }
        let anyTick = try connection.subscribe(rule: MatchRule(interface: "org.quaver.Peer", member: "Tick")) { _ in
            allTicks += 1
        }
        XCTAssertTrue(pump(until: { owners == [nil] }, timeout: 10), "\(owners)")

        let peer = try service.start("/usr/bin/python3", ["-c", pythonPeer])
        XCTAssertTrue(pump(until: { owners.count == 2 }, timeout: 20), peer.standardError)
        let owner = try XCTUnwrap(owners[1])
        XCTAssertTrue(owner.hasPrefix(":"))

        let path: ObjectPath = "/org/quaver/Peer"
        XCTAssertEqual(try connection.call(destination: "org.quaver.Peer", path: path, interface: "org.quaver.Peer",
                                           method: "Add", arguments: [.int32(2), .int32(3)]), [.int32(5)])
        XCTAssertThrowsError(try connection.call(destination: "org.quaver.Peer", path: path,
                                                 interface: "org.quaver.Peer", method: "Nope")) { error in
            XCTAssertEqual(error as? DBusError, DBusError(name: "org.quaver.Peer.Error.Nope", message: "not today"))
        }
        XCTAssertThrowsError(try connection.call(destination: "org.quaver.Peer", path: path,
                                                 interface: "org.quaver.Peer", method: "Slow", timeout: 0.3)) { error in
            XCTAssertEqual((error as? DBusError)?.name, "org.freedesktop.DBus.Error.NoReply")
        }

        var replies: [Result<[DBusValue], DBusError>] = []
        connection.call(destination: "org.quaver.Peer", path: path, interface: "org.quaver.Peer", method: "Emit",
                        arguments: [.string("hello")]) { replies.append($0) }
        XCTAssertTrue(pump(until: { ticks.count == 1 && replies.count == 1 }, timeout: 20))
        XCTAssertEqual(try replies[0].get(), [])
        XCTAssertEqual(ticks[0].arguments, [.string("hello"), .int32(42)])
        XCTAssertEqual(ticks[0].sender, owner)
        XCTAssertEqual(ticks[0].path, path)

        fromPeer.cancel()
        connection.call(destination: "org.quaver.Peer", path: path, interface: "org.quaver.Peer", method: "Emit",
                        arguments: [.string("again")]) { replies.append($0) }
        XCTAssertTrue(pump(until: { allTicks == 2 }, timeout: 20), "\(allTicks) \(ticks.count) \(replies)")
        XCTAssertEqual(ticks.count, 1, "a cancelled subscription still received a signal")

        connection.call(destination: "org.quaver.Peer", path: path, interface: "org.quaver.Peer", method: "Quit") { _ in }
        XCTAssertTrue(pump(until: { owners.count == 3 }, timeout: 20))
        XCTAssertEqual(owners[2], nil)
        connection.call(destination: "org.quaver.Peer", path: path, interface: "org.quaver.Peer", method: "Add",
                        arguments: [.int32(1), .int32(1)]) { replies.append($0) }
        XCTAssertTrue(pump(until: { replies.count == 3 }, timeout: 20))
        XCTAssertEqual(replies.last?.failureName, "org.freedesktop.DBus.Error.ServiceUnknown")
        _ = (ownerWatch, fromOther, anyTick)
    }

    func testOutgoingValuesAreValidatedInsteadOfAborting() throws {
        let service = try TestService()
        let connection = service.connection
        func invalidArgs(_ body: () throws -> Void, _ message: String, line: UInt = #line) {
            XCTAssertThrowsError(try body(), line: line) { error in
                XCTAssertEqual(error as? DBusError, .invalidArgs(message), line: line)
            }
        }
        let path = TestService.path
        invalidArgs({ try connection.emitSignal(path: path, interface: "org.quaver.Test", name: "Custom",
                                                 arguments: [.string("nul\u{0}inside")]) },
                    "string contains NUL")
        // Everything else a Swift string can hold libdbus takes (it would abort the test process otherwise).
        let unusual = String(String.UnicodeScalarView([0x1, 0x7F, 0xFDD0, 0xFFFE, 0xFFFF, 0x10FFFF, 0xE9]
            .compactMap(Unicode.Scalar.init(_:))))
        XCTAssertEqual(unusual.unicodeScalars.count, 7)
        XCTAssertNoThrow(try connection.emitSignal(path: path, interface: "org.quaver.Test", name: "Custom",
                                                   arguments: [.string(unusual), .int32(1)]))
        invalidArgs({ try connection.emitSignal(path: path, interface: "no-dots", name: "Custom") },
                    "'no-dots' is not a valid interface name")
        invalidArgs({ try connection.emitSignal(path: path, interface: "org.quaver.Test", name: "Bad.Member") },
                    "'Bad.Member' is not a valid member name")
        let badPath = "/trailing/", badSignature = "a{vs}"  // variables: a literal would pick the literal initialiser
        invalidArgs({ _ = try ObjectPath(badPath) }, "'/trailing/' is not a valid object path")
        invalidArgs({ _ = try Signature(badSignature) }, "'a{vs}' is not a valid D-Bus signature")
        invalidArgs({ try connection.emitSignal(path: path, interface: "org.quaver.Test", name: "Custom",
                                                 arguments: [.array(element: "s", [.int32(1)])]) },
                    "array of 's' holds a 'i'")
        invalidArgs({ try connection.emitSignal(path: path, interface: "org.quaver.Test", name: "Custom",
                                                 arguments: [.structure([])]) }, "empty structures are not allowed")
        invalidArgs({ try connection.emitSignal(path: path, interface: "org.quaver.Test", name: "Custom",
                                                 arguments: [.dictionary(key: "s", value: "i", [(.string("k"), .string("v"))])]) },
                    "dictionary a{si} holds an entry {ss}")
        XCTAssertEqual(DBusError(name: "not an error name", message: "m").name, "org.freedesktop.DBus.Error.Failed")
        var reply: Result<[DBusValue], DBusError>?
        connection.call(destination: "bad name!", path: path, interface: "org.quaver.Test", method: "Echo") { reply = $0 }
        XCTAssertTrue(pump(until: { reply != nil }, timeout: 5))
        XCTAssertEqual(reply?.failureName, "org.freedesktop.DBus.Error.InvalidArgs")
    }

    func testSecondOwnerOfTheNameIsRefusedAndDisconnectIsReported() throws {
        let service = try TestService()
        let second = try Connection(address: service.bus.address)
        XCTAssertThrowsError(try second.requestName(TestService.name)) { error in
            XCTAssertEqual(error as? ConnectionError, .nameTaken(TestService.name))
        }
        XCTAssertNoThrow(try service.connection.requestName(TestService.name), "owning it again is fine")
        var disconnected = false
        service.connection.onDisconnect = { disconnected = true }
        service.bus.stop()
        XCTAssertTrue(pump(until: { disconnected }, timeout: 10))
        XCTAssertFalse(service.connection.isConnected)
    }

    func testIntrospectionIsAcceptedByGdbus() throws {
        let service = try TestService()
        let output = try service.run("gdbus", ["introspect", "--session", "--dest", TestService.name,
                                               "--object-path", "/", "--recurse"])
        for expected in ["node /org/quaver/Test {", "interface org.quaver.Test {", "Echo(in  v value,",
                         "out v value);", "readonly as Tags = ['a', 'b'];", "Custom(s text,", "readonly s Name", "readwrite d Volume",
                         "node /org/quaver/Test/child {", "interface org.freedesktop.DBus.Properties {"] {
            XCTAssertTrue(output.contains(expected), "missing \(expected) in:\n\(output)")
        }
    }
}

private extension Result where Failure == DBusError {
    var failureName: String? {
        if case .failure(let error) = self { return error.name }
        return nil
    }
}

private let pythonPeer = """
import dbus, dbus.service, dbus.mainloop.glib, time
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
loop = GLib.MainLoop()
class Peer(dbus.service.Object):
    @dbus.service.method('org.quaver.Peer', in_signature='ii', out_signature='i')
    def Add(self, a, b): return a + b
    @dbus.service.method('org.quaver.Peer', in_signature='', out_signature='')
    def Nope(self): raise dbus.exceptions.DBusException('not today', name='org.quaver.Peer.Error.Nope')
    @dbus.service.method('org.quaver.Peer', in_signature='', out_signature='')
    def Slow(self): time.sleep(2)
    @dbus.service.method('org.quaver.Peer', in_signature='s', out_signature='')
    def Emit(self, text): self.Tick(text, 42)
    @dbus.service.signal('org.quaver.Peer', signature='si')
    def Tick(self, text, n): pass
    @dbus.service.method('org.quaver.Peer', in_signature='', out_signature='')
    def Quit(self): GLib.idle_add(loop.quit)
peer = Peer(bus, '/org/quaver/Peer')
name = dbus.service.BusName('org.quaver.Peer', bus)
GLib.timeout_add_seconds(60, loop.quit)
loop.run()
"""
