import ControlAPI
import DBus
import EventLoop
import Foundation
import MPRIS
import PlayerCore
import TestSupport
import XCTest

/// A player with the fake engine, the MPRIS adapter and org.quaver.Quaver1 exported under quaverd's bus
/// name as quaverd wires them, in the test process on `EventLoop.main`, on a fresh private bus; clients
/// are other processes (python, quaver).
final class QuaverService {
    static let path = ObjectPath(stringLiteral: ControlAPI.objectPath)

    let bus: PrivateBus
    let connection: Connection
    let engine = FakeEngine()
    let player: Player
    let mpris: MPRISService
    let interface: QuaverInterface
    let media: TemporaryDirectory

    init() throws {
        bus = try PrivateBus()
        media = try TemporaryDirectory(prefix: "quaver-media")
        connection = try Connection(address: bus.address)
        player = Player(engine: engine)
        mpris = MPRISService(player: player, connection: connection, configuration: .init(
            supportedMimeTypes: { ["audio/flac"] }, artwork: ArtworkCache(directory: media.url.appendingPathComponent("art")),
            quit: {}))
        interface = QuaverInterface(mpris: mpris, version: "1.2.3-test", parts: [PlaybackHealthMembers(player: player)])
        connection.export(mpris.exportedObject(adding: [interface.description]))
        try connection.requestName(ControlAPI.busName)
    }

    /// Creates (tiny, silent to nobody: the engine is fake) files and returns their file URIs.
    func makeFiles(_ names: [String], in folder: String = "") throws -> [String] {
        let directory = media.url.appendingPathComponent(folder, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try names.map { name in
            let file = directory.appendingPathComponent(name)
            try Data("x".utf8).write(to: file)
            return file.absoluteString
        }
    }

    var queueURIs: [String] { player.tracks.map(\.uri) }

    /// Runs the real `quaver` binary against this bus while the loop serves it.
    @discardableResult
    func quaver(_ arguments: [String], expectStatus: Int32? = 0, timeout: Double = 30,
                file: StaticString = #filePath, line: UInt = #line) throws -> (status: Int32, out: String, err: String) {
        let child = try startQuaver(arguments)
        XCTAssertTrue(pump(until: { !child.isRunning }, timeout: timeout), "quaver \(arguments) hung", file: file, line: line)
        child.stop()
        let result = (child.process.terminationStatus, child.standardOutput, child.standardError)
        if let expectStatus {
            XCTAssertEqual(result.0, expectStatus, "quaver \(arguments.joined(separator: " ")): \(result.2)",
                           file: file, line: line)
        }
        return result
    }

    func startQuaver(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(Self.quaverBinary, arguments + ["--bus-address", bus.address],
                         logDirectory: bus.directory.url, name: "quaver")
    }

    static var quaverBinary: String { productsDirectory.appendingPathComponent("quaver").path }

    /// Runs a python3-dbus script while the loop serves; returns its stdout after asserting success.
    @discardableResult
    func python(_ script: String, timeout: Double = 120, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let child = try ChildProcess("/usr/bin/python3", ["-c", pythonPrologue + script], environment: bus.environment,
                                     logDirectory: bus.directory.url, name: "python")
        XCTAssertTrue(pump(until: { !child.isRunning }, timeout: timeout), "python hung", file: file, line: line)
        child.stop()
        XCTAssertEqual(child.process.terminationStatus, 0, "python failed: \(child.standardError)", file: file, line: line)
        return child.standardOutput
    }
}

let pythonPrologue = """
import dbus, sys, json
bus = dbus.SessionBus()
obj = bus.get_object('\(ControlAPI.busName)', '\(ControlAPI.objectPath)')
quaver = dbus.Interface(obj, '\(ControlAPI.quaverInterface)')
props = dbus.Interface(obj, '\(ControlAPI.propertiesInterface)')
\(pythonErrorOf)
"""
