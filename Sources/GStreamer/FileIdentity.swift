import CGLib
import Glibc

/// What tells a local file's contents apart cheaply: its device, inode, size and the times of its last
/// write and change (`stat`). A file written to, replaced or deleted since has another identity (or none).
public struct FileIdentity: Equatable, Sendable {
    private let device: UInt64
    private let inode: UInt64
    private let size: Int64
    private let modified: Duration
    private let changed: Duration

    /// The identity of the file a `file:` URI names now; nil when the URI names no local file or it cannot
    /// be looked at. The URI is decoded as GStreamer's filesrc decodes it (`g_filename_from_uri`).
    public init?(fileURI uri: String) {
        guard let name = localPath(fileURI: uri) else { return nil }
        var status = stat()
        guard stat(name, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = .seconds(status.st_mtim.tv_sec) + .nanoseconds(status.st_mtim.tv_nsec)
        changed = .seconds(status.st_ctim.tv_sec) + .nanoseconds(status.st_ctim.tv_nsec)
    }
}

/// The local path a `file:` URI names, decoded as GStreamer's filesrc decodes it (`g_filename_from_uri`);
/// nil when it names no local file.
public func localPath(fileURI uri: String) -> String? {
    guard let name = g_filename_from_uri(uri, nil, nil) else { return nil }
    defer { g_free(name) }
    return String(cString: name)
}
