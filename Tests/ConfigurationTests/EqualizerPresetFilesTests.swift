import Configuration
import ControlAPI
import Foundation
import TestSupport
import XCTest

/// The user's equaliser presets: good files read, every other kind left out with a line naming it.
final class EqualizerPresetFilesTests: XCTestCase {
    private var folder: TemporaryDirectory!

    override func setUpWithError() throws { folder = try TemporaryDirectory(prefix: "quaver-eq") }
    override func tearDown() { folder = nil }

    private func write(_ name: String, _ text: String) throws {
        try text.write(to: folder.url.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    func testAGoodFileIsAPresetNamedAfterIt() throws {
        try write("warm.toml", "# my preset\npreamp = -3.5\nbands = [4, 3, 2, 0, 0, 0, 0, -1, -2, -3]\n")
        try write("no-preamp.toml", "bands = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1.5]\n")
        try write("notes.txt", "not a preset")
        let files = EqualizerPresetFiles(folder: folder.url)
        XCTAssertEqual(files.problems, [])
        XCTAssertEqual(files.presets.map(\.name), ["no-preamp", "warm"])
        XCTAssertEqual(files.presets.last?.setting.values, [-3.5, 4, 3, 2, 0, 0, 0, 0, -1, -2, -3])
        XCTAssertEqual(files.presets.first?.setting.preAmp, 0)
    }

    func testUnusableFilesAreLeftOutAndNamed() throws {
        let bad = ["Bad Name.toml": "bands = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]",
                   "flat.toml": "bands = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]",
                   "nine.toml": "bands = [0, 0, 0, 0, 0, 0, 0, 0, 0]",
                   "loud.toml": "bands = [40, 0, 0, 0, 0, 0, 0, 0, 0, 0]",
                   "nan.toml": "bands = [nan, 0, 0, 0, 0, 0, 0, 0, 0, 0]",
                   "text.toml": "bands = [\"a\", 0, 0, 0, 0, 0, 0, 0, 0, 0]",
                   "typo.toml": "bandz = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]",
                   "syntax.toml": "bands = [0, 0",
                   "deep.toml": "bands = " + String(repeating: "[", count: 10_000),
                   "huge.toml": "bands = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]\n" + String(repeating: "# padding\n", count: 2000)]
        for (name, text) in bad { try write(name, text) }
        try write("good.toml", "bands = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]")
        try FileManager.default.createSymbolicLink(at: folder.url.appendingPathComponent("linked.toml"),
                                                   withDestinationURL: folder.url.appendingPathComponent("good.toml"))
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("folder.toml"), withIntermediateDirectories: false)
        let files = EqualizerPresetFiles(folder: folder.url)
        XCTAssertEqual(files.presets.map(\.name), ["good"])
        for name in Array(bad.keys) + ["linked.toml", "folder.toml"] {
            XCTAssertEqual(files.problems.filter { $0.contains("/\(name):") }.count, 1, "\(name) in \(files.problems)")
        }
        print(files.problems.joined(separator: "\n"))
    }

    func testAMissingFolderHasNoPresets() {
        let files = EqualizerPresetFiles(folder: folder.url.appendingPathComponent("missing"))
        XCTAssertTrue(files.presets.isEmpty && files.problems.isEmpty)
    }

    func testOnlyTheFirstHundredFilesAreRead() throws {
        for index in 0..<105 { try write(String(format: "p%03d.toml", index), "bands = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]") }
        let files = EqualizerPresetFiles(folder: folder.url)
        XCTAssertEqual(files.presets.count, EqualizerPresetFiles.maximumFileCount)
        XCTAssertEqual(files.problems.count, 1)
    }
}

/// The daemon's view of the folder: read again when a file comes, goes or changes, and each problem told once.
final class EqualizerPresetFolderTests: XCTestCase {
    func testAChangeIsSeenAndAProblemToldOnce() throws {
        let folder = try TemporaryDirectory(prefix: "quaver-eq")
        let presets = EqualizerPresetFolder(url: folder.url)
        var told: [String] = []
        XCTAssertTrue(presets.presets { told.append($0) }.isEmpty)
        func write(_ name: String, _ text: String) throws {
            try text.write(to: folder.url.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        try write("warm.toml", "bands = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]")
        try write("bad.toml", "bands = 3")
        XCTAssertEqual(presets.presets { told.append($0) }.map(\.name), ["warm"])
        XCTAssertEqual(presets.presets { told.append($0) }.map(\.name), ["warm"])
        XCTAssertEqual(told.count, 1, "bad.toml told once: \(told)")
        try write("warm.toml", "bands = [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]")  // edited in place: eleven bands now
        XCTAssertEqual(presets.presets { told.append($0) }.map(\.name), [])
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("warm.toml"))
        try write("cool.toml", "bands = [-1, 0, 0, 0, 0, 0, 0, 0, 0, 0]")
        XCTAssertEqual(presets.presets { told.append($0) }.map(\.name), ["cool"])
    }
}
