import Foundation

/// A directory removed with its contents when released, or else when the process exits: XCTest keeps every test
/// case object, and the fixtures its properties hold, until the run ends and never releases them, so a folder
/// left to `deinit` alone stayed in TMPDIR after each run (thousands of `quaver-*` folders in /tmp).
public final class TemporaryDirectory {
    public let url: URL
    public init(prefix: String = "quaver-test") throws {
        let template = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix).XXXXXX").path
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else { throw TestHarnessError("mkdtemp failed for \(template)") }
        url = URL(fileURLWithPath: String(cString: made))
        LiveTemporaryDirectories.shared.add(url.path)
    }
    public var path: String { url.path }
    deinit {
        try? FileManager.default.removeItem(at: url)
        LiveTemporaryDirectories.shared.remove(url.path)
    }
}

/// The temporary directories not removed yet: at exit, once the children that may write in them are stopped
/// (`LiveChildren`), they are removed, so a run leaves TMPDIR as it found it however its tests ended (failed,
/// skipped, or holding their fixtures), unless the process is killed.
final class LiveTemporaryDirectories: @unchecked Sendable {
    static let shared = LiveTemporaryDirectories()
    private let lock = NSLock()
    private var paths: Set<String> = []

    private init() {
        atexit { LiveTemporaryDirectories.shared.removeAll() }
    }

    func add(_ path: String) { lock.withLock { _ = paths.insert(path) } }
    func remove(_ path: String) { lock.withLock { _ = paths.remove(path) } }

    private func removeAll() {
        LiveChildren.shared.stopAll()
        let left = lock.withLock { () -> Set<String> in defer { paths = [] }; return paths }
        left.forEach { try? FileManager.default.removeItem(atPath: $0) }
    }
}
