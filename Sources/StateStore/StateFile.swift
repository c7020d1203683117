import BaseDirectories
import FoundationEssentials
import Glibc

/// The saved-state file, `$XDG_STATE_HOME/quaver/state.json` by default, and beside it `state.json.position`,
/// the position while playing (`PositionMark`), so that a tick does not write a 20 000-track queue again.
///
/// Writes are atomic: the JSON goes to `<name>.tmp` in the same folder and is renamed over the file (atomic on one
/// file system), so a reader sees the old state or the new one, never a mix. The state is durable too: its
/// temporary is `fsync`ed before the rename and the folder after it, so the rename itself survives a power cut.
/// The position mark is not synced: it is rewritten every second while playing, and its two `fsync`s a second
/// kept the disk from ever idling and were a third of the CPU time of quaverd's own threads (perf while playing
/// Vorbis: 7 of 20 samples; the other 136 were GStreamer's and PulseAudio's threads). A power cut can
/// lose the marks the kernel had not written back yet (it does within 30 s); the load then uses an older mark, or
/// the state's own position when the mark is unreadable or names another revision.
public struct StateFile: Sendable {
    public let url: URL
    /// A larger file is set aside unread: a queue of 100 000 tracks (`InputLimits`) with tags takes about
    /// 1 KiB per track at most in practice, and a file of hundreds of megabytes (a client once queued a
    /// 100 MB URI) took 13 s and 634 MB to load.
    public static let maximumBytes = 128 << 20

    public init(url: URL) {
        self.url = url
    }

    /// `state.json` in Quaver's XDG state folder (`$XDG_STATE_HOME/quaver`, or `~/.local/state/quaver`).
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> StateFile {
        StateFile(url: try BaseDirectory.state.quaverFolder(environment: environment).appendingPathComponent("state.json"))
    }

    var folderPath: String { url.deletingLastPathComponent().path }
    var positionPath: String { url.path + ".position" }

    /// Reads the saved state. A missing file gives no state and no warning. A file that cannot be used
    /// (unreadable, not JSON, truncated, another format version, inconsistent) is renamed to
    /// `state.json.corrupt-<UTC time>` so the next save cannot destroy it, and the warning says so.
    public func load(now: Date = Date()) -> LoadedState {
        let data: Data
        do {
            guard let read = try boundedContents() else {
                return setAside(because: "it is larger than \(Self.maximumBytes >> 20) MiB", now: now)
            }
            data = read
        } catch let error as POSIXError where error.code == .ENOENT {
            return LoadedState(state: nil, warning: nil)
        } catch {
            return setAside(because: "it cannot be read (\(error.fileErrorText))", now: now)
        }
        switch decode(data) {
        case .success(let state): return LoadedState(state: applyingPositionMark(to: state), warning: nil)
        case .failure(let problem): return setAside(because: problem.reason, now: now)
        }
    }

    /// The file's bytes, nil when it has more than `maximumBytes`: its size is asked first, and the read stops
    /// there too (it may grow between the two).
    private func boundedContents() throws -> Data? {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int(status.st_size) <= Self.maximumBytes else { return nil }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while data.count <= Self.maximumBytes {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            if count == 0 { return data }
            data.append(contentsOf: chunk[..<count])
        }
        return nil
    }

    /// The position mark's current track and position, if it was written for this state (same revision).
    /// A missing, unreadable, stale or inconsistent mark leaves the state as it is.
    private func applyingPositionMark(to state: SavedState) -> SavedState {
        guard let revision = state.revision,
              let data = FileManager.default.contents(atPath: positionPath),
              let mark = try? JSONDecoder().decode(PositionMark.self, from: data), mark.revision == revision
        else { return state }
        var updated = state
        updated.currentIndex = mark.currentIndex
        updated.positionMicroseconds = mark.positionMicroseconds
        guard updated.inconsistency() == nil else { return state }
        updated.wasPlaying = mark.wasPlaying
        return updated
    }

    /// Writes `state` atomically (see the type's comment), creating the folder if needed.
    public func save(_ state: SavedState) throws {
        try save(state) { each in state.queue.forEach(each) }
    }

    /// Writes `state` with the queue that `tracks` hands over one by one (its `queue` is not read): a
    /// queue of 100 000 is never all converted at once.
    public func save(_ state: SavedState, tracks: ((SavedTrack) -> Void) -> Void) throws {
        try makeFolder()
        try writeAtomically(to: url.path, synced: true) { write in try StateJSON.encode(state, tracks: tracks, writing: write) }
    }

    /// Writes the position mark (atomically, like the state, but not synced), for the state saved with `mark.revision`.
    public func savePosition(_ mark: PositionMark) throws {
        try writeAtomically(to: positionPath, synced: false) { write in try write(StateJSON.encode(mark)) }
    }

    private struct Unusable: Error {
        let reason: String
    }

    /// One full decode in the usual case: decoding a 20 000-track file takes ~0.1 s, and the daemon's
    /// first answer waits for the restore. Only a file that fails is decoded again for its version, so
    /// that a file of another format version is reported as such.
    private func decode(_ data: Data) -> Result<SavedState, Unusable> {
        let decoder = JSONDecoder()
        let state: SavedState
        do {
            state = try decoder.decode(SavedState.self, from: data)
        } catch {
            guard let probe = try? decoder.decode(VersionProbe.self, from: data) else {
                return .failure(Unusable(reason: "it is not a Quaver state file (not JSON, truncated, or no version)"))
            }
            if let wrongVersion = versionProblem(probe.version) { return .failure(wrongVersion) }
            return .failure(Unusable(reason: "it does not match the state format (\(describe(error)))"))
        }
        if let wrongVersion = versionProblem(state.version) { return .failure(wrongVersion) }
        if let problem = state.inconsistency() { return .failure(Unusable(reason: problem)) }
        return .success(state)
    }

    private func versionProblem(_ version: Int) -> Unusable? {
        guard !SavedState.readableVersions.contains(version) else { return nil }
        let readable = SavedState.readableVersions
        return Unusable(reason: "it has format version \(version), this Quaver reads versions \(readable.lowerBound) to \(readable.upperBound)")
    }

    private func setAside(because reason: String, now: Date) -> LoadedState {
        let aside = asidePath(now: now)
        let outcome = rename(url.path, aside) == 0
            ? "moved it to \(aside); starting with an empty queue"
            : "could not move it aside (\(String(cString: strerror(errno)))); starting with an empty queue"
        return LoadedState(state: nil, warning: "Saved state \(url.path) was not used because \(reason): \(outcome)")
    }

    /// `state.json.corrupt-20261122T010203Z`, with `-2`, `-3`… if that name is taken.
    private func asidePath(now: Date) -> String {
        let stamp = Date.ISO8601FormatStyle(dateSeparator: .omitted, dateTimeSeparator: .standard, timeSeparator: .omitted,
                                            timeZone: .gmt)
        let base = "\(url.path).corrupt-\(now.formatted(stamp))"
        var candidate = base
        var counter = 1
        while access(candidate, F_OK) == 0 {
            counter += 1
            candidate = "\(base)-\(counter)"
        }
        return candidate
    }

    private func makeFolder() throws {
        do {
            try FileManager.default.createDirectory(atPath: folderPath, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw StateFileError(operation: "create folder", path: folderPath, reason: error.fileErrorText)
        }
    }

    /// `produce` hands the file's text to the `write` it is given, in one piece or several; `synced`: the file and
    /// its rename are on the disk when this returns.
    private func writeAtomically(to path: String, synced: Bool,
                                 _ produce: (_ write: ([UInt8]) throws -> Void) throws -> Void) throws {
        let temporary = path + ".tmp"
        // O_TRUNC on a fixed name (not O_EXCL on a unique one): a temporary left by a crash is reused, not piled up.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw StateFileError.fromErrno("create", temporary) }
        do {
            try produce { piece in try writeAll(fd, piece, path: temporary) }
            guard !synced || fsync(fd) == 0 else { throw StateFileError.fromErrno("fsync", temporary) }
            guard close(fd) == 0 else { throw StateFileError.fromErrno("close", temporary) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = StateFileError.fromErrno("rename to \(path)", temporary)
            unlink(temporary)
            throw error
        }
        if synced { try syncFolder() }
    }

    private func writeAll(_ fd: Int32, _ data: [UInt8], path: String) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw StateFileError.fromErrno("write", path)
                }
                offset += written
            }
        }
    }

    /// `fsync` on the folder makes the rename durable (POSIX leaves directory entries to the folder's own sync).
    private func syncFolder() throws {
        let fd = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StateFileError.fromErrno("open folder", folderPath) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw StateFileError.fromErrno("fsync folder", folderPath) }
    }
}

/// What `StateFile.load` found.
public struct LoadedState: Sendable {
    /// The state to restore, or `nil` (no file, or a file that could not be used).
    public let state: SavedState?
    /// For the log when the file was set aside: what was wrong and where the file went.
    public let warning: String?
}

/// A failed save: the operation, the path and the system's reason.
public struct StateFileError: Error, CustomStringConvertible {
    public let operation: String
    public let path: String
    public let reason: String

    public var description: String { "cannot \(operation) \(path): \(reason)" }

    static func fromErrno(_ operation: String, _ path: String) -> StateFileError {
        StateFileError(operation: operation, path: path, reason: String(cString: strerror(errno)))
    }
}

private struct VersionProbe: Decodable {
    let version: Int
}

private func describe(_ error: Error) -> String {
    guard let decoding = error as? DecodingError else { return "\(error)" }
    switch decoding {
    case .keyNotFound(let key, let context):
        return "missing \(path(context.codingPath + [key]))"
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
        return "bad value at \(path(context.codingPath)): \(context.debugDescription)"
    @unknown default:
        return "\(error)"
    }
}

private func path(_ keys: [CodingKey]) -> String {
    keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
}
