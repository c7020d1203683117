import Glibc

/// The file calls of the playlist folder, each relative to the folder's open descriptor (`openat`, `renameat`), so a
/// name is always looked up in that folder, and none follows a symbolic link in the last place.
struct FolderFiles {
    let path: String

    /// Makes the folder (and its parents) if missing; the daemon's umask keeps it private.
    func create() throws(PlaylistStoreError) {
        var built = ""
        for component in path.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o700) != 0 && errno != EEXIST { throw failure("cannot create \(built)") }
        }
    }

    /// Writes `bytes` as `name` so that a reader (or a crash, a `kill -9`, a full disk) sees either the old file
    /// whole or the new one whole: a new file of its own (`O_EXCL | O_NOFOLLOW`), synced, renamed over the
    /// name, then the folder synced so the rename itself is on disk.
    func replace(_ name: String, with bytes: [UInt8]) throws(PlaylistStoreError) {
        let folder = try openFolder()
        defer { close(folder) }
        let temporary = ".\(name).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("cannot write in \(path)") }
        var result: Result<Void, PlaylistStoreError> = .success(())
        do { try writeAll(fd, bytes) } catch { result = .failure(error) }
        if case .success = result, fsync(fd) != 0 { result = .failure(failure("cannot write \(name)")) }
        close(fd)
        if case .success = result, renameat(folder, temporary, folder, name) != 0 {
            result = .failure(failure("cannot replace \(name)"))
        }
        if case .failure(let error) = result {
            unlinkat(folder, temporary, 0)
            throw error
        }
        fsync(folder)
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(PlaylistStoreError) {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw failure("cannot write in \(path)") }
            written += count
        }
    }

    /// Renames without replacing: a hard link fails when `to` exists (`EEXIST`), then the old name goes.
    func rename(_ from: String, to: String) throws(PlaylistStoreError) {
        let folder = try openFolder()
        defer { close(folder) }
        guard linkat(folder, from, folder, to, 0) == 0 else {
            throw errno == EEXIST ? .exists(String(to.dropLast(PlaylistName.fileExtension.count)))
                : errno == ENOENT ? .notFound(String(from.dropLast(PlaylistName.fileExtension.count)))
                : failure("cannot rename \(from)")
        }
        unlinkat(folder, from, 0)
        fsync(folder)
    }

    func remove(_ name: String) throws(PlaylistStoreError) {
        guard unlink(path + "/" + name) == 0 else {
            throw errno == ENOENT ? .notFound(String(name.dropLast(PlaylistName.fileExtension.count)))
                : failure("cannot remove \(name)")
        }
    }

    /// The names of the regular files in the folder (none when it does not exist yet).
    func names() throws(PlaylistStoreError) -> [String] {
        guard let directory = opendir(path) else {
            if errno == ENOENT { return [] }
            throw failure("cannot list \(path)")
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            guard entry.pointee.d_type == DT_REG || entry.pointee.d_type == DT_UNKNOWN else { continue }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            names.append(name)
        }
        return names
    }

    /// A file's bytes and modification and change times, read without following a link; nil when it is missing.
    func read(_ name: String, limit: Int) throws(PlaylistStoreError) -> (bytes: [UInt8], modified: Int64, changed: Int64)? {
        let fd = open(path + "/" + name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("cannot read \(name)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= limit else {
            throw .file("\(name) is not a regular file of at most \(limit >> 20) MiB")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes[done...].withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            done += count
        }
        return (Array(bytes[..<done]), Int64(info.st_mtim.tv_sec), Int64(info.st_ctim.tv_sec))
    }

    /// The folder's modification time in nanoseconds (0 when missing): it changes when a file is added,
    /// removed or renamed in it, by Quaver or by hand.
    func modification() -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    private func openFolder() throws(PlaylistStoreError) -> Int32 {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("cannot open \(path)") }
        return fd
    }

    private func failure(_ what: String) -> PlaylistStoreError {
        .file("\(what): \(String(cString: strerror(errno)))")
    }
}
