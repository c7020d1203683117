import ArgumentParser
import DBus
import EventLoop
import Glibc

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the state, the track and the time; --follow keeps a live line until interrupted.")

    @OptionGroup var options: ClientOptions
    @Flag(help: "Redraw on every change (and once a second while playing) until Ctrl-C or quaverd exits.")
    var follow = false

    func run() throws {
        let client = try options.connect()
        let status = try PlayerStatus.read(client)
        guard follow else { return print(status.summary(at: EventLoop.monotonicMicroseconds)) }
        let follower = try StatusFollower(client: client, initial: status)
        EventLoop.main.run()
        follower.finish()
    }
}

/// The live status line: redrawn when quaverd signals a change (PropertiesChanged, Seeked), and by a
/// one-second local tick that extrapolates the position from Rate, so nothing polls the daemon.
/// On a terminal the line is rewritten in place; into a pipe each new line is printed once.
final class StatusFollower {
    private let client: PlayerClient
    private var status: PlayerStatus
    private var subscriptions: [SignalSubscription] = []
    private var sources: [LoopSource] = []
    private var lastLine = ""
    private var refreshing = false
    private var refreshAgain = false

    init(client: PlayerClient, initial: PlayerStatus) throws {
        self.client = client
        status = initial
        let connection = client.connection
        subscriptions = [
            try connection.subscribe(rule: MatchRule(sender: PlayerClient.busName, interface: PlayerClient.properties,
                                                     member: "PropertiesChanged", path: PlayerClient.path)) {
                [unowned self] _ in refresh()
            },
            try connection.subscribe(rule: MatchRule(sender: PlayerClient.busName, interface: PlayerClient.player,
                                                     member: "Seeked", path: PlayerClient.path)) {
                [unowned self] _ in refresh()
            },
            try connection.watchNameOwner(PlayerClient.busName) { owner in
                guard owner == nil else { return }
                Terminal.warn("quaverd left the bus")
                EventLoop.main.quit()
            },
        ]
        sources = [SIGINT, SIGTERM].map { EventLoop.main.onSignal($0) { EventLoop.main.quit() } }
        sources.append(EventLoop.main.schedule(after: 1, repeating: true) { [unowned self] in draw() })
        connection.onDisconnect = { EventLoop.main.quit() }
        draw()
    }

    /// Re-reads everything (Position is live only through Get: MPRIS.md rule 1); signals that arrive
    /// meanwhile cause one more read, not one each.
    private func refresh() {
        guard !refreshing else { refreshAgain = true; return }
        refreshing = true
        getAll(PlayerClient.player) { [unowned self] player in
            getAll(PlayerClient.quaver) { [unowned self] quaver in
                status = PlayerStatus(player: player, quaver: quaver)
                refreshing = false
                draw()
                if refreshAgain { refreshAgain = false; refresh() }
            }
        }
    }

    private func getAll(_ interface: String, then body: @escaping ([String: DBusValue]) -> Void) {
        client.connection.call(destination: PlayerClient.busName, path: PlayerClient.path,
                               interface: PlayerClient.properties, method: "GetAll",
                               arguments: [.string(interface)]) { result in
            body((try? result.get())?.first?.dictionaryValue ?? [:])
        }
    }

    private func draw() {
        let line = status.liveLine(at: EventLoop.monotonicMicroseconds)
        guard line != lastLine else { return }
        lastLine = line
        Terminal.write(Terminal.isInteractive ? "\r\u{1B}[K" + line : line + "\n")
    }

    func finish() {
        subscriptions.forEach { $0.cancel() }
        sources.forEach { $0.cancel() }
        if Terminal.isInteractive { Terminal.write("\n") }
    }
}
