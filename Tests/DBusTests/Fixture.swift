import DBus
import EventLoop
import Foundation
import TestSupport
import XCTest

/// The service under test, in the test process on `EventLoop.main`, on a fresh private bus.
final class TestService {
    static let name = "org.quaver.Test"
    static let path: ObjectPath = "/org/quaver/Test"
    static let interface = "org.quaver.Test"

    let bus: PrivateBus
    let connection: Connection
    var recorded: [DBusValue] = []
    var volume = 0.5
    var count: Int32 = 1

    init() throws {
        bus = try PrivateBus()
        connection = try Connection(address: bus.address)
        try connection.requestName(TestService.name)
        connection.export(ExportedObject(path: TestService.path, interfaces: [description]))
        connection.export(ExportedObject(path: "/org/quaver/Test/child", interfaces: []))
    }

    private var description: InterfaceDescription {
        typealias Method = InterfaceDescription.Method
        typealias Property = InterfaceDescription.Property
        typealias Argument = InterfaceDescription.Argument
        return InterfaceDescription(name: TestService.interface, methods: [
            Method(name: "Echo", inputs: [Argument("value", "v")], outputs: [Argument("value", "v")]) { call in
                call.arguments
            },
            Method(name: "Record", inputs: [Argument("value", "v")]) { [unowned self] call in
                recorded.append(call.arguments[0])
                return []
            },
            Method(name: "Concat", inputs: [Argument("a", "s"), Argument("b", "s")],
                   outputs: [Argument("joined", "s")]) { call in
                [.string((call.arguments[0].stringValue ?? "") + (call.arguments[1].stringValue ?? ""))]
            },
            Method(name: "Sender", outputs: [Argument("sender", "s")]) { call in [.string(call.sender ?? "")] },
            Method(name: "Fail") { _ in throw DBusError(name: "org.quaver.Error.Custom", message: "custom failure") },
            Method(name: "WrongReply", outputs: [Argument("n", "i")]) { _ in [.string("not an int")] },
            // A reply large enough to be built off the loop, then, in the next turn, a signal: it must arrive second.
            Method(name: "ManyThenSignal", inputs: [Argument("count", "u")], outputs: [Argument("texts", "as")]) {
                [unowned self] call in
                let count = Int(call.arguments[0].int64Value ?? 0)
                EventLoop.main.post { [unowned self] in
                    try? connection.emitSignal(path: TestService.path, interface: TestService.interface, name: "Custom",
                                               arguments: [.string("after"), .int32(Int32(count))])
                }
                return [.stringArray((0..<count).map { "text \($0)" })]
            },
        ], properties: [
            Property(name: "Name", type: "s") { .string("quaver") },
            Property(name: "Tags", type: "as") { .stringArray(["a", "b"]) },
            Property(name: "Volume", type: "d", access: .readWrite, get: { [unowned self] in .double(volume) },
                     set: { [unowned self] in volume = $0.doubleValue ?? volume }),
            Property(name: "Count", type: "i", access: .readWrite, get: { [unowned self] in .int32(count) },
                     set: { [unowned self] value in
                         guard let n = value.int64Value, n >= 0 else { throw DBusError.invalidArgs("Count must be >= 0") }
                         count = Int32(n)
                     }),
            Property(name: "Broken", type: "s") { throw DBusError.failed("getter failed") },
            Property(name: "Mistyped", type: "s") { .int32(3) },
        ], signals: [
            SignalDescription(name: "Custom", arguments: [Argument("text", "s"), Argument("number", "i")]),
        ])
    }

    /// Runs `script` with the system python (which has python3-dbus and GLib bindings) while the loop
    /// serves; returns its output after asserting that it exited with status 0.
    @discardableResult
    func runPython(_ script: String, timeout: Double = 60, arguments: [String] = [],
                   file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try run("/usr/bin/python3", ["-c", script] + arguments, timeout: timeout, file: file, line: line)
    }

    @discardableResult
    func run(_ executable: String, _ arguments: [String], timeout: Double = 60,
             file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let child = try start(executable, arguments)
        let finished = pump(until: { !child.isRunning }, timeout: timeout)
        XCTAssertTrue(finished, "\(executable) did not finish: \(child.standardError)", file: file, line: line)
        child.stop()
        XCTAssertEqual(child.process.terminationStatus, 0, "stderr: \(child.standardError)\nstdout: \(child.standardOutput)",
                       file: file, line: line)
        return child.standardOutput
    }

    func start(_ executable: String, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(executable, arguments, environment: bus.environment, logDirectory: bus.directory.url)
    }

    /// A python client with a GLib loop on the private bus: `script` (which may use `bus`, `loop` and
    /// `note(line)`) runs, then the loop, until `note` has printed `lines` lines or 20 s have passed.
    func startPythonListener(quittingAfter lines: Int, _ script: String) throws -> ChildProcess {
        try start("/usr/bin/python3", ["-c", """
        import dbus, dbus.mainloop.glib
        from gi.repository import GLib
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.SessionBus()
        loop = GLib.MainLoop()
        seen = []
        def note(line):
            print(line, flush=True)
            seen.append(line)
            if len(seen) == \(lines): loop.quit()
        \(script)
        GLib.timeout_add_seconds(20, loop.quit)
        loop.run()
        """])
    }
}

/// Common python prologue: a session-bus connection to the private bus and the service proxy.
let pythonPrologue = """
import dbus, sys
bus = dbus.SessionBus()
obj = bus.get_object('org.quaver.Test', '/org/quaver/Test')
test = dbus.Interface(obj, 'org.quaver.Test')
props = dbus.Interface(obj, 'org.freedesktop.DBus.Properties')
\(pythonErrorOf)
"""
