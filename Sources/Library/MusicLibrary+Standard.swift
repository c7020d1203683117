import EventLoop
import Logging

extension MusicLibrary {
    /// The daemon's library: the resolved music `folders` (`MusicFolders.resolve`; none: the library is off) on
    /// the standard index. Nil when it is off or its index cannot be opened, said in one line of `log`; the
    /// scanner's lines from its threads are logged on the loop.
    public static func standard(folders: [String], log: Logger) -> MusicLibrary? {
        guard !folders.isEmpty else {
            log.info("the music library is off: [library] folders names no folder", source: log.label)
            return nil
        }
        do {
            let library = MusicLibrary(folders: folders, index: try standardIndex()) { line in
                EventLoop.main.post { log.warning("\(line)", source: log.label) }
            }
            log.info("music library: \(folders.joined(separator: ", "))", source: log.label)
            return library
        } catch {
            log.error("the music library is off: \(error)", source: log.label)
            return nil
        }
    }
}
