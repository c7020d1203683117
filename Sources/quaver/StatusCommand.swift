import ArgumentParser
import ControlAPI
import DBus
import EventLoop
import Glibc
import QuaverClient
import TerminalText

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the state, the track and the time; --follow keeps a live line until interrupted.",
        discussion: """
            --json prints one JSON object; --format prints a line with {{field}} placeholders, e.g. \
            '{{artist}} - {{title}} {{position}}/{{length}}'. Fields: \(PlayerStatus.formatFields.joined(separator: ", ")).
            With --follow, --json prints one line per change and --format one line whenever its text changes.
            """)

    @OptionGroup var options: ClientOptions
    @Flag(help: "Redraw on every change (and once a second while playing) until Ctrl-C or quaverd exits.")
    var follow = false
    @Flag(help: "Print JSON (fields in docs/scripting.md).") var json = false
    @Option(help: "Print this line with {{field}} placeholders, as playerctl --format does.") var format: String?

    func validate() throws {
        if json && format != nil { throw ValidationError("--json and --format cannot be combined") }
        _ = try template()
    }

    func run() throws {
        let client = try options.connect()
        let status = try PlayerStatus.read(client)
        let output = try self.output()
        guard follow else { return output.print(status.render(output)) }
        let follower = try StatusFollower(client: client, initial: status, output: output)
        EventLoop.main.run()
        follower.finish()
    }

    private func template() throws -> OutputTemplate? {
        do {
            return try format.map { try OutputTemplate($0, knownFields: PlayerStatus.formatFields) }
        } catch let unknown as OutputTemplate.UnknownField {
            throw ValidationError(unknown.description)
        }
    }

    private func output() throws -> StatusOutput {
        if json { return .json }
        if let template = try template() { return .template(template) }
        return follow ? .liveLine : .summary
    }
}

/// How `quaver status` shows the status.
enum StatusOutput {
    /// `playing  Title – Artist  1:23 / 3:45`
    case summary
    /// `▶ Title – Artist  [####----]  1:23 / 3:45`, followed: rewritten in place on a terminal, into a pipe
    /// printed once per change.
    case liveLine
    case json
    case template(OutputTemplate)

    /// JSON changes only when quaverd signals a change: its position is exact then, and a line a second
    /// would only repeat what a reader can extrapolate from `position_us` and `rate`.
    var redrawsEverySecond: Bool {
        if case .json = self { return false }
        return true
    }

    var rewritesInPlace: Bool {
        if case .liveLine = self { return Terminal.isInteractive }
        return false
    }

    func print(_ text: String) {
        if rewritesInPlace { Terminal.replaceLine(text) } else { Terminal.line(text) }
    }
}

extension PlayerStatus {
    func render(_ output: StatusOutput, at now: Int64 = EventLoop.monotonicMicroseconds) -> String {
        switch output {
        case .summary: return summary(at: now)
        case .liveLine: return liveLine(at: now)
        case .json: return json(at: now).text
        case .template(let template): return template.render(formatValues(at: now))
        }
    }
}

/// The followed status: redrawn when quaverd signals a change (PropertiesChanged, Seeked), and (but for
/// JSON) by a one-second local tick that extrapolates the position from Rate, so nothing polls the daemon.
/// A line is printed only when its text changed.
final class StatusFollower {
    private let client: QuaverClient
    private var status: PlayerStatus
    private let output: StatusOutput
    private var subscriptions: [SignalSubscription] = []
    private var sources: [LoopSource] = []
    private var lastLine = ""
    private var refreshing = false
    private var refreshAgain = false

    init(client: QuaverClient, initial: PlayerStatus, output: StatusOutput) throws {
        self.client = client
        self.output = output
        status = initial
        subscriptions = try client.onChange { [unowned self] in refresh() }
        subscriptions.append(try client.onPresence { present in
            guard !present else { return }
            Terminal.warn("quaverd left the bus")
            EventLoop.main.quit()
        })
        sources = [SIGINT, SIGTERM].map { EventLoop.main.onSignal($0) { EventLoop.main.quit() } }
        if output.redrawsEverySecond {
            sources.append(EventLoop.main.schedule(after: 1, repeating: true) { [unowned self] in draw() })
        }
        client.connection.onDisconnect = { EventLoop.main.quit() }
        draw()
    }

    /// Re-reads everything (Position is live only through Get: docs/mpris.md, "Position"); signals that arrive
    /// meanwhile cause one more read, not one each, and only that read is drawn.
    private func refresh() {
        guard !refreshing else { refreshAgain = true; return }
        refreshing = true
        client.getAll(ControlAPI.playerInterface) { [unowned self] player in
            client.getAll(ControlAPI.quaverInterface) { [unowned self] quaver in
                status = PlayerStatus(player: player, quaver: quaver)
                refreshing = false
                // A change signalled between the two reads may show in one and not the other (Playing with
                // state "paused"): such a read is not printed; the next one is.
                if refreshAgain { refreshAgain = false; return refresh() }
                draw()
            }
        }
    }

    private func draw() {
        let line = status.render(output)
        guard line != lastLine else { return }
        lastLine = line
        output.print(line)
    }

    func finish() {
        subscriptions.forEach { $0.cancel() }
        sources.forEach { $0.cancel() }
        if output.rewritesInPlace { Terminal.endLine() }
    }
}
