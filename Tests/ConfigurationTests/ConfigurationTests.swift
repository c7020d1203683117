import Configuration
import Foundation
import TestSupport
import XCTest

final class ConfigurationTests: XCTestCase {
    private var folder: TemporaryDirectory!

    override func setUpWithError() throws {
        folder = try TemporaryDirectory(prefix: "quaver-config")
    }

    private func write(_ text: String) throws -> URL {
        let url = folder.url.appendingPathComponent("config.toml")
        try Data(text.utf8).write(to: url)
        return url
    }

    /// The error for `text`, which must be refused.
    private func error(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> ConfigurationError {
        let url = try write(text)
        do throws(ConfigurationError) {
            let parsed = try Configuration.load(from: url)
            XCTFail("accepted: \(parsed)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.file, url.path, file: file, line: line)
            return error
        }
        throw TestHarnessError("accepted")
    }

    func testMissingFileMeansDefaults() throws {
        XCTAssertEqual(try Configuration.load(from: folder.url.appendingPathComponent("none.toml")), Configuration())
        XCTAssertEqual(try Configuration.load(from: write("# only a comment\n")), Configuration())
    }

    func testStandardLocationFollowsXDG() throws {
        XCTAssertEqual(try Configuration.standardURL(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]).path, "/c/quaver/config.toml")
        XCTAssertEqual(try Configuration.standardURL(environment: ["HOME": "/h"]).path, "/h/.config/quaver/config.toml")
    }

    func testEveryKeyIsRead() throws {
        let url = try write("""
            [audio]
            output = "pulsesink device=usb"
            [playback]
            resume-on-start = false
            resume-paused = false
            gapless = false
            replaygain = "auto"
            replaygain-preamp-db = -3
            sleep-fade-seconds = 2.5
            [interruptions]
            pause-on-cork = false
            resume-after-cork = false
            pause-on-suspend = false
            resume-after-wake = true
            pause-on-output-removed = false
            resume-when-output-returns = false
            resume-window-minutes = 0.5
            pause-on-session-inactive = false
            pause-when-other-player-starts = true
            [power]
            keep-awake-while-playing = false
            [network]
            cache-size-mb = 0
            retries = 100
            connect-timeout-seconds = 2.5
            proxy = "http://127.0.0.1:3128"
            [notifications]
            enabled = true
            timeout-seconds = 4.5
            [snapcast]
            host = "kitchen.local"
            port = 1704
            sample-format = "44100:24:1"
            [log]
            level = "debug"
            """)
        var expected = Configuration()
        expected.audio.output = "pulsesink device=usb"
        expected.playback.resumeOnStart = false
        expected.playback.resumePaused = false
        expected.playback.gapless = false
        expected.playback.replayGain = .auto
        expected.playback.replayGainPreAmpDB = -3
        expected.playback.sleepFadeSeconds = 2.5
        expected.interruptions.pauseOnCork = false
        expected.interruptions.resumeAfterCork = false
        expected.interruptions.pauseOnSuspend = false
        expected.interruptions.resumeAfterWake = true
        expected.interruptions.pauseOnOutputRemoved = false
        expected.interruptions.resumeWhenOutputReturns = false
        expected.interruptions.resumeWindowMinutes = 0.5
        expected.interruptions.pauseOnSessionInactive = false
        expected.interruptions.pauseWhenOtherPlayerStarts = true
        expected.power.keepAwakeWhilePlaying = false
        expected.network.cacheSizeMB = 0
        expected.network.retries = 100
        expected.network.connectTimeoutSeconds = 2.5
        expected.network.proxy = "http://127.0.0.1:3128"
        expected.notifications.enabled = true
        expected.notifications.timeoutSeconds = 4.5
        expected.snapcast.host = "kitchen.local"
        expected.snapcast.port = 1704
        expected.snapcast.sampleFormat = SnapcastSampleFormat(rate: 44_100, bits: 24, channels: 1)
        expected.log.level = .debug
        XCTAssertEqual(try Configuration.load(from: url), expected)
    }

    func testIntegerSecondsAreAccepted() throws {
        XCTAssertEqual(try Configuration.load(from: write("[network]\nconnect-timeout-seconds = 30\n")).network.connectTimeoutSeconds, 30)
    }

    func testBadValuesNameTheKeyAndWhatWasExpected() throws {
        let host = "expected a host name or an IP address, such as \"127.0.0.1\", found "
        let sampleFormat = "expected \"rate:bits:channels\" such as \"48000:16:2\" (rate 8000 to 192000, bits 16, 24 or 32, "
            + "1 to 8 channels), found "
        let cases: [(String, String, String)] = [
            ("[network]\nretries = 500\n", "network.retries", "expected an integer from 0 to 100, found 500"),
            ("[network]\nretries = \"5\"\n", "network.retries", "expected an integer from 0 to 100, found \"5\""),
            ("[network]\nretries = 2.5\n", "network.retries", "expected an integer from 0 to 100, found 2.5"),
            ("[audio]\noutput = \"  \"\n", "audio.output", "expected a non-empty string, found \"  \""),
            ("[playback]\ngapless = \"yes\"\n", "playback.gapless", "expected true or false, found \"yes\""),
            ("[interruptions]\npause-on-cork = 1\n", "interruptions.pause-on-cork", "expected true or false, found 1"),
            ("[interruptions]\nresume-window-minutes = 0\n", "interruptions.resume-window-minutes",
             "expected a number of minutes more than 0 and at most 1440, found 0"),
            ("[power]\nkeep-awake-while-playing = \"yes\"\n", "power.keep-awake-while-playing", "expected true or false, found \"yes\""),
            ("[playback]\nsleep-fade-seconds = 601\n", "playback.sleep-fade-seconds", "expected a number from 0.0 to 600.0, found 601"),
            ("[network]\nretries = -1\n", "network.retries", "expected an integer from 0 to 100, found -1"),
            ("[network]\ncache-size-mb = 2000000\n", "network.cache-size-mb", "expected an integer from 0 to 1048576, found 2000000"),
            ("[network]\nconnect-timeout-seconds = 0\n", "network.connect-timeout-seconds",
             "expected a number of seconds more than 0 and at most 3600, found 0"),
            ("[log]\nlevel = \"loud\"\n", "log.level",
             "expected one of \"trace\", \"debug\", \"info\", \"notice\", \"warning\", \"error\", \"critical\", found \"loud\""),
            ("[audio]\noutput = [\"a\"]\n", "audio.output", "expected a non-empty string, found an array"),
            ("[playback]\nreplaygain = \"smart\"\n", "playback.replaygain",
             "expected one of \"off\", \"track\", \"album\", \"auto\", found \"smart\""),
            ("[notifications]\ntimeout-seconds = -1\n", "notifications.timeout-seconds",
             "expected a number from 0.0 to 3600.0, found -1"),
            ("[playback]\nreplaygain-preamp-db = 20\n", "playback.replaygain-preamp-db",
             "expected a number from -15.0 to 15.0, found 20"),
            ("[network]\nproxy = \"proxy:3128\"\n", "network.proxy",
             "expected \"\" or a proxy URL such as \"http://proxy.example:3128\", found \"proxy:3128\""),
            ("[network]\nproxy = \"file:///tmp/x\"\n", "network.proxy",
             "expected \"\" or a proxy URL such as \"http://proxy.example:3128\", found \"file:///tmp/x\""),
            ("[network]\nproxy = \"ftp://me:pass'word@proxy:3128/?token=t\"\n", "network.proxy",
             "expected \"\" or a proxy URL such as \"http://proxy.example:3128\", found \"ftp://***@proxy:3128/?token=***\""),
            ("[snapcast]\nport = 0\n", "snapcast.port", "expected an integer from 1 to 65535, found 0"),
            ("[snapcast]\nhost = \"a b\"\n", "snapcast.host", host + "\"a b\""),
            ("[snapcast]\nhost = \"x\\\" ! filesink location=/tmp/y\"\n", "snapcast.host",
             host + "\"x\" ! filesink location=/tmp/y\""),
            ("[snapcast]\nsample-format = \"48000:8:2\"\n", "snapcast.sample-format", sampleFormat + "\"48000:8:2\""),
            ("[snapcast]\nsample-format = \"48000:16\"\n", "snapcast.sample-format", sampleFormat + "\"48000:16\""),
            ("[snapcast]\nsample-format = \"1000:16:2\"\n", "snapcast.sample-format", sampleFormat + "\"1000:16:2\""),
        ]
        for (text, key, message) in cases {
            let refused = try error(text)
            XCTAssertEqual(refused.key, key, text)
            XCTAssertEqual(refused.message, message, text)
            XCTAssertEqual(refused.description, "\(refused.file): \(key): \(message)")
        }
    }

    func testUnknownSectionsAndKeysAreErrors() throws {
        let section = try error("[mixer]\nvolume = 1\n")
        XCTAssertEqual(section.key, "mixer")
        XCTAssertEqual(section.message, "unknown section; known sections are [audio], [playback], [interruptions], [power], [network], [notifications], [snapcast], [library], [scrobble], [log]")
        let key = try error("[audio]\nvolume_step = 5\n")
        XCTAssertEqual(key.key, "audio.volume_step")
        XCTAssertEqual(key.message, "unknown key; [audio] has output")
        let nested = try error("[audio.extra]\nx = 1\n")
        XCTAssertEqual(nested.key, "audio.extra")
        let topLevel = try error("gapless = true\n")
        XCTAssertEqual(topLevel.key, "gapless")
        let notATable = try error("audio = 3\n")
        XCTAssertEqual(notATable.message, "expected a section [audio], found 3")
    }

    func testSyntaxErrorsGiveTheLine() throws {
        let refused = try error("[audio]\noutput = \"pulsesink\"\nvolume = = 3\n")
        XCTAssertNil(refused.key)
        XCTAssertEqual(refused.line, 3)
        XCTAssertTrue(refused.description.hasPrefix("\(refused.file):3: TOML syntax error: "), refused.description)
        XCTAssertEqual(try error("[network]\nretries = 3\nretries = 4\n").line, 3, "a repeated key")
    }

    func testUnreadableOrNonUTF8FilesAreErrors() throws {
        let url = folder.url.appendingPathComponent("config.toml")
        try Data([0x5B, 0xFF, 0x5D]).write(to: url)
        XCTAssertThrowsError(try Configuration.load(from: url)) { error in
            XCTAssertTrue("\(error)".contains("not UTF-8"), "\(error)")
        }
        try FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        XCTAssertThrowsError(try Configuration.load(from: url)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(url.path): cannot be read"), "\(error)")
        }
    }

    // MARK: the committed example

    private var exampleURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("config.example.toml")
    }

    func testTheExampleFileGivesExactlyTheDefaults() throws {
        XCTAssertEqual(try Configuration.load(from: exampleURL), Configuration())
    }

    func testTheExampleFileListsEveryKeyOnce() throws {
        var section = ""
        var listed: [String] = []
        for line in try String(contentsOf: exampleURL, encoding: .utf8).split(separator: "\n") {
            if line.hasPrefix("[") { section = String(line.dropFirst().dropLast()) }
            if let equals = line.firstIndex(of: "="), !line.hasPrefix("#") {
                listed.append(section + "." + line[..<equals].trimmingCharacters(in: .whitespaces))
            }
        }
        XCTAssertEqual(listed, Configuration.knownKeys)
    }
}

final class LibraryFoldersSettingTests: XCTestCase {
    func testFoldersAreAListOfAbsoluteHomeOrMusicFolderPaths() throws {
        let parsed = try Configuration.parse("[library]\nfolders = [\"$XDG_MUSIC_DIR\", \"~/More\", \"/mnt/nas\"]\n", file: "c")
        XCTAssertEqual(parsed.library.folders, ["$XDG_MUSIC_DIR", "~/More", "/mnt/nas"])
        XCTAssertEqual(try Configuration.parse("[library]\nfolders = []\n", file: "c").library.folders, [])
        for bad in ["folders = \"/music\"", "folders = [\"relative\"]", "folders = [1]"] {
            XCTAssertThrowsError(try Configuration.parse("[library]\n\(bad)\n", file: "c"), bad) { error in
                XCTAssertEqual((error as? ConfigurationError)?.key, "library.folders")
            }
        }
    }
}
