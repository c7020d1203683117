/// The reply to a method call that is answered later, from a later turn of the loop: a handler that has
/// long work to do (thousands of files to check) does it in slices, so the loop keeps answering other
/// callers meanwhile. Replies once; a reply that is never given is sent as an error when this is released,
/// so the caller never waits for its timeout.
public final class PendingReply {
    private let call: Message
    private let outputSignature: Signature
    private weak var connection: Connection?
    private let member: String
    private var answered = false
    private var onAnswered: (() -> Void)?

    init(call: Message, member: String, outputSignature: Signature, connection: Connection) {
        self.call = call
        self.member = member
        self.outputSignature = outputSignature
        self.connection = connection
    }

    /// Sends `values`, which must match the method's declared outputs (else the caller gets `Failed`).
    public func finish(_ values: [DBusValue]) {
        guard values.signature == outputSignature else {
            return fail(.failed("\(member) produced '\(values.signature)' instead of '\(outputSignature)'"))
        }
        answer { [call] in $0.reply(to: call, with: values) }
    }

    public func fail(_ error: DBusError) { answer { [call] in $0.reply(to: call, with: error) } }

    /// Runs `body` once, right after the reply or the error has gone out.
    public func whenAnswered(_ body: @escaping () -> Void) { onAnswered = body }

    /// Answers once: `deliver` sends the reply on the connection, if it is still there.
    private func answer(_ deliver: (Connection) -> Void) {
        guard !answered else { return }
        answered = true
        if let connection { deliver(connection) }
        let body = onAnswered
        onAnswered = nil
        body?()
    }

    deinit { if !answered { fail(.failed("\(member) was not answered")) } }
}
