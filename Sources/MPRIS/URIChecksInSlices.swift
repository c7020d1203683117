import ControlAPI
import DBus
import EventLoop
import PublicText

/// The checks of OpenUri and AddTrack for a whole batch of AddTracks or ReplaceQueue (`items`, the strings
/// of an `as`, at most `InputLimits.maximumURIsPerCall`), as many items as fit in a few milliseconds
/// (`TurnBudget`, at most `sliceSize`) or `sliceBytes` of them per turn of the loop, in the background:
/// each file is looked up on disk, and 20 000 of them at once held every other caller for 70 ms
/// (converting 100 000 strings, 7 ms), a slice of 1 000 of them 8 to 38 ms (`quaver add` of a folder);
/// each URI is parsed, and a slice of 1000 URIs of 64 KiB would be 64 MB of text. None of a long batch is
/// checked in the turn that starts it.
///
/// `allOrNothing` (AddTracks, ReplaceQueue: the caller named exactly these) answers the first refusal
/// and nothing is applied; `skippingRefused` (AddFolderTracks: a folder's contents, where one odd file
/// should not sink the rest) applies what passes and lists the rest with their reasons.
final class URIChecksInSlices {
    enum Refusals { case allOrNothing, skippingRefused }

    static let sliceSize = 1000
    static let sliceBytes = 1 << 20
    /// Contents are looked at for small batches only: reading the start of every file of a library would
    /// keep the bus waiting (a bad file among thousands fails and is skipped when it comes up).
    static let contentCheckedBatch = 64

    private let items: [DBusValue]
    private let refusals: Refusals
    private let recognisesMedia: (([UInt8]) -> Bool)?
    private let reply: PendingReply
    private let apply: (_ uris: [String], _ refused: [(uri: String, reason: String)]) throws -> Void
    private var uris: [String] = []
    private var refused: [(uri: String, reason: String)] = []
    private var budget = TurnBudget(maximum: URIChecksInSlices.sliceSize)

    init(_ items: [DBusValue], _ refusals: Refusals, recognisesMedia: (([UInt8]) -> Bool)?, _ reply: PendingReply,
         apply: @escaping (_ uris: [String], _ refused: [(uri: String, reason: String)]) throws -> Void) {
        self.items = items
        self.refusals = refusals
        self.recognisesMedia = items.count <= Self.contentCheckedBatch ? recognisesMedia : nil
        self.reply = reply
        self.apply = apply
        uris.reserveCapacity(items.count)
    }

    func start() {
        guard items.count <= InputLimits.maximumURIsPerCall else {
            return reply.fail(.limitsExceeded("\(items.count) URIs in one call: at most \(InputLimits.maximumURIsPerCall) are accepted; the queue is unchanged"))
        }
        let long = items.count > Self.sliceSize || items.reduce(0, { $0 + ($1.stringValue?.utf8.count ?? 0) }) > Self.sliceBytes
        guard long else { return step(from: 0) }
        EventLoop.main.postInBackground { self.step(from: 0) }
    }

    /// Checks one slice and posts the next; the object lives in the posted closures until the end.
    private func step(from start: Int) {
        do {
            let end = try budget.slice { size in
                var end = start, bytes = 0
                while end < items.count, end - start < size, bytes < Self.sliceBytes {
                    let uri = items[end].stringValue ?? ""
                    try check(end, uri)
                    bytes += uri.utf8.count
                    end += 1
                }
                return (end - start, end)
            }
            guard end < items.count else { return try apply(uris, refused) }
            EventLoop.main.postInBackground { self.step(from: end) }
        } catch {
            reply.fail(error as? DBusError ?? .failed("\(error)"))
        }
    }

    /// The error of all-or-nothing names the first refused item and its place.
    private func check(_ index: Int, _ uri: String) throws {
        do {
            uris.append(try OpenableURI.check(uri, recognisesMedia: recognisesMedia))
        } catch let error as DBusError {
            let shown = PublicText.url(uri, limit: 200)
            guard refusals == .skippingRefused else {
                throw DBusError.invalidArgs("item \(index + 1) \"\(shown)\": \(error.message); the queue is unchanged")
            }
            refused.append((shown, error.message))
        }
    }
}
