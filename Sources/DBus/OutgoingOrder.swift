/// The order in which outgoing messages may leave when some are still being built off the loop
/// (`Connection.send(buildingOffTheLoop:)`).
///
/// A reply carrying 100 000 track ids took 45 ms to marshal, a turn of the loop every other caller waited
/// for. Such a message is now built on a thread of its own, and what the loop sends meanwhile must not
/// change what any peer sees: messages to one destination arrive in the order they were sent, and a
/// signal (sent to everyone) keeps its place before and after everything else. So a message leaves at once
/// only when nothing ahead of it, still being built or held, goes to the same destination or to everyone;
/// otherwise it is held, and leaves when what is ahead of it has. A client polling the player is answered
/// while another client's long reply is built; a signal emitted meanwhile waits for that reply.
struct OutgoingOrder<Payload> {
    /// Names a message being built.
    struct Ticket: Equatable { fileprivate let number: Int }

    private struct Entry {
        let number: Int
        /// `nil`: to everyone (a signal).
        let destination: String?
        /// `nil` while it is being built.
        var payload: Payload?
    }

    private var waiting: [Entry] = []
    private var lastNumber = 0

    var isEmpty: Bool { waiting.isEmpty }

    /// `payload` if it may leave now; otherwise it is held and returned later by `fill`.
    mutating func admit(_ payload: Payload, to destination: String?) -> Payload? {
        guard waiting.contains(where: { Self.conflict($0.destination, destination) }) else { return payload }
        lastNumber += 1
        waiting.append(Entry(number: lastNumber, destination: destination, payload: payload))
        return nil
    }

    /// Keeps a place for a message to `destination` that is being built.
    mutating func reserve(to destination: String?) -> Ticket {
        lastNumber += 1
        waiting.append(Entry(number: lastNumber, destination: destination, payload: nil))
        return Ticket(number: lastNumber)
    }

    /// The built message (or `nil` when building it failed) takes its place; returns, in order, every
    /// message that may leave now.
    mutating func fill(_ ticket: Ticket, with payload: Payload?) -> [Payload] {
        guard let index = waiting.firstIndex(where: { $0.number == ticket.number }) else { return [] }
        if let payload { waiting[index].payload = payload } else { waiting.remove(at: index) }
        var leaving: [Payload] = []
        var staying: [Entry] = []
        for entry in waiting {
            if let payload = entry.payload, !staying.contains(where: { Self.conflict($0.destination, entry.destination) }) {
                leaving.append(payload)
            } else {
                staying.append(entry)
            }
        }
        waiting = staying
        return leaving
    }

    /// Whether a message to `later` must wait for one to `earlier` (`nil`: everyone).
    private static func conflict(_ earlier: String?, _ later: String?) -> Bool {
        earlier == nil || later == nil || earlier == later
    }
}
