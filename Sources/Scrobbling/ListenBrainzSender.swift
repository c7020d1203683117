import Dispatch
import FoundationEssentials
import Glibc
import ListeningHistory
import Logging
import RemoteMedia

/// Sends listens to a ListenBrainz server from the history's queue of waiting listens, on a thread of its own.
///
/// A listen is written to the history first and sent from there, oldest first, up to 100 per request, and marked
/// sent only once the server accepted it, so listens made offline or before a crash go out when the server is back,
/// in order. If an answer is lost after the server took a batch, the batch is sent again: ListenBrainz keeps one
/// listen per user, track and `listened_at`, so the listen's own timestamp makes a second sending harmless.
///
/// Failures: a network error or a 5xx waits (30 s, doubling up to an hour) and tries again; a 429 waits as long as
/// `X-RateLimit-Reset-In` says, and a request that leaves `X-RateLimit-Remaining` at 0 waits the same before the
/// next; a 401 (wrong token) is logged once and the listens stay until a new listen or a restart tries again with
/// the token read anew. A server that hangs costs one timeout. The token is never logged.
public final class ListenBrainzSender {
    public struct Options: Sendable {
        /// The server's root, e.g. `https://api.listenbrainz.org`.
        public var url: String
        public var token: ScrobbleToken
        /// HTTP time bounds (`HTTPClient`), and the proxy.
        public var timeoutSeconds: Double
        public var proxy: String?
        /// The first wait after a failure; doubled per failure up to `longestWait`.
        public var firstWait: Double = 30
        public var longestWait: Double = 3600

        public init(url: String, token: ScrobbleToken, timeoutSeconds: Double, proxy: String?) {
            self.url = url
            self.token = token
            self.timeoutSeconds = timeoutSeconds
            self.proxy = proxy
        }
    }

    private let options: Options
    private let historyPath: String
    private let log: Logger
    private let queue = DispatchQueue(label: "quaver.listenbrainz")
    // The rest is touched on `queue` only.
    private var client: HTTPClient?
    private var token: String?
    private var retryScheduled = false
    private var wait: Double = 0
    private var notBefore = Date.distantPast
    private var toldUnauthorized = false
    /// Brings what the history keeps aside into its file before the listens waiting there are read (the history's
    /// journal, written while music plays: `HistoryRecorder.foldJournalAndWait`). Set before `start`.
    public var beforeReading: (() -> Void)?

    /// - Parameter historyPath: the history file, opened again here (one connection per thread).
    public init(options: Options, historyPath: String, log: Logger) {
        self.options = options
        self.historyPath = historyPath
        self.log = log
    }

    private var endpoint: String {
        (options.url.hasSuffix("/") ? String(options.url.dropLast()) : options.url) + "/1/submit-listens"
    }

    /// Sends what waits (at start: listens from earlier runs). A history not made yet, with no journal to fold in,
    /// has none waiting: then nothing runs, so SQLite does not make the file at start; the first write makes it
    /// (`HistoryConnection`) and the first listen brings the sender here (`listenRecorded`).
    public func start() {
        guard HistoryDatabase.isMade(at: historyPath) || HistoryJournal(besideHistoryAt: historyPath).isThere else { return }
        queue.async { self.sendWaiting() }
    }

    /// A listen was written to the history: send it (and anything older still waiting).
    public func listenRecorded() {
        queue.async {
            if self.toldUnauthorized { self.token = nil }  // read again: the user may have fixed it
            self.sendWaiting()
        }
    }

    /// `playing_now` for a track that started; nothing is kept or retried if it fails.
    public func playingNow(_ listen: Listen) {
        guard ListenBrainzPayload.isSendable(listen) else { return }
        queue.async {
            guard !self.retryScheduled, Date() >= self.notBefore else { return }
            if case .failure(let error) = self.post(ListenBrainzPayload.playingNow(listen)) {
                self.log.debug("ListenBrainz playing_now not sent: \(error)")
            }
        }
    }

    /// Runs `body` on the sender's queue and waits: for tests and the daemon's shutdown.
    public func sync<T>(_ body: () -> T) -> T { queue.sync(execute: body) }

    // MARK: On the queue

    private func sendWaiting() {
        guard !retryScheduled else { return }
        beforeReading?()
        guard let database = openDatabase() else { return }
        while true {
            let batch: [Listen]
            do { batch = try database.waitingListens(limit: ListenBrainzPayload.largestBatch) } catch {
                return log.error("cannot read the listens waiting for ListenBrainz: \(error)")
            }
            let (sendable, unsendable) = (batch.filter(ListenBrainzPayload.isSendable), batch.filter { !ListenBrainzPayload.isSendable($0) })
            do {
                if !unsendable.isEmpty { try database.markSent(unsendable) }  // never to be sent: out of the queue
            } catch {
                return log.error("cannot mark listens as done: \(error)")
            }
            guard !batch.isEmpty else { return }
            guard sendable.isEmpty || send(sendable, database) else { return }
        }
    }

    /// One request; true when the batch is done with (accepted) and the next may go.
    private func send(_ batch: [Listen], _ database: HistoryDatabase) -> Bool {
        let pause = notBefore.timeIntervalSinceNow
        guard pause <= 0 else {
            schedule(after: pause)  // the server said to wait before the next request
            return false
        }
        switch post(ListenBrainzPayload.listens(batch)) {
        case .success(let answer) where answer.status == 200:
            do { try database.markSent(batch) } catch { log.error("cannot mark listens as sent: \(error)") }
            wait = 0
            if toldUnauthorized { log.notice("ListenBrainz accepts the token again") }
            toldUnauthorized = false
            return true
        case .success(let answer) where answer.status == 401:
            if !toldUnauthorized { log.error("ListenBrainz refused the token (401): listens are kept until it is fixed") }
            toldUnauthorized = true
            token = nil
            return false
        case .success(let answer) where answer.status == 429:
            retry(after: Self.resetIn(answer) ?? nextWait(), "rate-limited by ListenBrainz (429)")
            return false
        case .success(let answer) where (400..<500).contains(answer.status):
            log.error("ListenBrainz refused \(batch.count) listen(s) (\(answer.status)): \(Self.text(answer.body)); they are dropped")
            try? database.markSent(batch)
            return true
        case .success(let answer):
            retry(after: nextWait(), "ListenBrainz answered \(answer.status)")
            return false
        case .failure(let error):
            retry(after: nextWait(), "ListenBrainz cannot be reached: \(error)")
            return false
        }
    }

    /// POSTs `body` with the token; answers with what came back.
    private func post(_ body: [UInt8]) -> Result<HTTPAnswer, Error> {
        Result {
            let token = try self.token ?? options.token.read()
            self.token = token
            let client = try self.client ?? HTTPClient(timeoutSeconds: options.timeoutSeconds, proxy: options.proxy)
            self.client = client
            let answer = try client.post(endpoint, headers: ["Authorization: Token \(token)", "Content-Type: application/json"],
                                         body: body)
            if answer.headers["x-ratelimit-remaining"] == "0", let reset = Self.resetIn(answer) {
                notBefore = Date().addingTimeInterval(reset)
            }
            return answer
        }
    }

    private func retry(after seconds: Double, _ why: String) {
        log.warning("\(why); listens kept, trying again in \(Int(seconds.rounded(.up))) s")
        schedule(after: seconds)
    }

    /// Sends what waits after `seconds`; nothing is sent meanwhile.
    private func schedule(after seconds: Double) {
        retryScheduled = true
        queue.asyncAfter(deadline: .now() + seconds) {
            self.retryScheduled = false
            self.sendWaiting()
        }
    }

    private func nextWait() -> Double {
        wait = wait == 0 ? options.firstWait : min(wait * 2, options.longestWait)
        return wait
    }

    /// `X-RateLimit-Reset-In`: seconds until the rate limit resets (at least 1 s, at most an hour).
    private static func resetIn(_ answer: HTTPAnswer) -> Double? {
        answer.headers["x-ratelimit-reset-in"].flatMap(Double.init).map { min(max($0, 1), 3600) }
    }

    private static func text(_ body: [UInt8]) -> String {
        String(decoding: body.prefix(200), as: UTF8.self).filter { !$0.isNewline }
    }

    /// A connection for one sending, closed when it ends: kept open, it held libsqlite3 resident for the rest of the
    /// session after the first listen, though the history's own connection is closed between writes (`CSQLite`).
    private func openDatabase() -> HistoryDatabase? {
        do {
            return try HistoryDatabase(path: historyPath)
        } catch {
            log.error("listens cannot be sent: the listening history cannot be opened: \(error)")
            return nil
        }
    }
}
