import Configuration
import ListeningHistory
import Logging
import PublicText

extension ListenBrainzSender {
    /// The sender `[scrobble]` asks for (docs/settings-and-state.md): nil when it names no server, or names one but
    /// neither a token file nor a token command (said in the log, since listens would silently wait).
    public static func configured(url: String, tokenFile: String, tokenCommand: String, timeoutSeconds: Double,
                                  proxy: String, historyPath: String, log: Logger) -> ListenBrainzSender? {
        guard !url.isEmpty else { return nil }
        let token: ScrobbleToken
        if !tokenFile.isEmpty {
            token = .file(tokenFile)
        } else if !tokenCommand.isEmpty {
            token = .command(tokenCommand)
        } else {
            log.error("[scrobble] listenbrainz-url is set but neither token-file nor token-command: nothing is sent")
            return nil
        }
        return ListenBrainzSender(options: .init(url: url, token: token, timeoutSeconds: timeoutSeconds,
                                                 proxy: proxy.isEmpty ? nil : proxy),
                                  historyPath: historyPath, log: log)
    }
}

extension ListenBrainzSender {
    /// The sender `scrobble` asks for, sending what `history` (its file at `path`) records, started; nil when
    /// it names no server. Where the listens go is logged.
    @discardableResult
    public static func follow(_ history: HistoryRecorder, storedAt path: String, scrobble: Configuration.Scrobble,
                              network: Configuration.Network, log: Logger) -> ListenBrainzSender? {
        guard let sender = configured(url: scrobble.listenBrainzURL, tokenFile: scrobble.tokenFile,
                                      tokenCommand: scrobble.tokenCommand, timeoutSeconds: network.connectTimeoutSeconds,
                                      proxy: network.proxy, historyPath: path, log: log) else { return nil }
        log.info("listens go to \(PublicText.from(scrobble.listenBrainzURL))", source: log.label)
        sender.follow(history)
        return sender
    }

    /// Starts sending: what waits from earlier runs now, then `playing_now` for each track `history` sees start
    /// and each listen once it is written.
    public func follow(_ history: HistoryRecorder) {
        history.onStarted = { [self] in playingNow(Listen($0)) }
        history.onListen = { [self] _, _ in listenRecorded() }
        beforeReading = { [weak history] in history?.foldJournalAndWait() }
        start()
    }
}
