import DBus
import Library

/// A D-Bus method answered from the music library's index: `query` runs on the library's reading thread
/// (`MusicLibrary.read`) with the call's arguments, then `answer` on the loop with what it read, so the loop
/// answers other callers meanwhile. A DBusError thrown is the answer as it is; any other error says the index
/// cannot be read.
func indexReadingMethod<Owner: AnyObject, Result>(
    _ name: String, _ inputs: [InterfaceDescription.Argument], outputs: [InterfaceDescription.Argument], owner: Owner,
    library: @escaping (Owner) throws -> MusicLibrary, query: @escaping (LibraryCatalog, [DBusValue]) throws -> Result,
    answer: @escaping (Owner, Result, [DBusValue], PendingReply) throws -> Void
) -> InterfaceDescription.Method {
    InterfaceDescription.Method(name: name, inputs: inputs, outputs: outputs) { [weak owner] call, reply in
        guard let owner else { throw DBusError.failed("the player is shutting down") }
        let arguments = call.arguments
        try library(owner).read({ try query($0, arguments) }) { [weak owner] result in
            do {
                guard let owner else { throw DBusError.failed("the player is shutting down") }
                try answer(owner, try result.get(), arguments, reply)
            } catch {
                reply.fail(error as? DBusError
                           ?? .failed("the music library's index cannot be read (\(error)); playback is not affected"))
            }
        }
    }
}
