import ArgumentParser
import EventLoop
import Foundation

/// One line of the table `scripts/bench` prints at the end: each benchmark prints its figures as
/// `ROW|figure|value|floor|ratio|target|ok`, and the script aligns the lines it collects.
struct BenchRow {
    var figure: String
    var value: String
    var floor = "—"
    var ratio = "—"
    var target: String
    var ok: Bool?

    /// A figure measured against a floor from the same run; `ratio` is value / floor.
    init(_ figure: String, value: Double, floor: Double?, format: String, target: String, ok: Bool?) {
        self.figure = figure
        self.value = String(format: format, value)
        if let floor {
            self.floor = String(format: format, floor)
            ratio = floor > 0 ? String(format: "%.2f", value / floor) : "—"
        }
        self.target = target
        self.ok = ok
    }

    func emit() {
        let verdict = ok.map { $0 ? "yes" : "NO" } ?? "—"
        print(["ROW", figure, value, floor, ratio, target, verdict].joined(separator: "|"))
    }
}

/// Reads the `ROW|…` lines of a benchmark run from standard input and prints them as one aligned table.
struct BenchReport: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "report",
                                                    abstract: "Align the ROW lines on standard input into a table.",
                                                    shouldDisplay: false)

    func run() {
        var rows = [["figure", "value", "floor", "ratio", "target", "ok"]]
        while let line = readLine() {
            guard line.hasPrefix("ROW|") else { continue }
            rows.append(line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map(String.init))
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        for row in rows {
            print(zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  "))
        }
    }
}

/// Microseconds per call of `body`, `count` times after `warmUp` untimed calls.
func timeCalls(_ count: Int, warmUp: Int, _ body: () throws -> Void) throws -> [Int64] {
    for _ in 0..<warmUp { try body() }
    return try (0..<count).map { _ in
        let start = EventLoop.monotonicMicroseconds
        try body()
        return EventLoop.monotonicMicroseconds - start
    }
}

/// One kind of call timed in turns with others (`measureInterleaved`): its samples (µs) and each round's median.
struct TimedSeries {
    let name: String
    let call: () throws -> Void
    private(set) var samples: [Int64] = []
    private(set) var roundMedians: [Int64] = []

    init(_ name: String, _ call: @escaping () throws -> Void) {
        self.name = name
        self.call = call
    }

    /// `calls` calls of each series, in rounds of `round` calls of one series after another, the order turned by
    /// one each round, after 100 untimed calls of each. Timed one series after the other, the machine and the bus
    /// drifted between two players' turns (a build starting, the bus daemon's caches), and a tie read as a win or
    /// a loss from one run to the next; in turns, each series meets the same moments.
    static func measureInterleaved(_ series: inout [TimedSeries], calls: Int, round: Int) throws {
        for timed in series { for _ in 0..<100 { try timed.call() } }
        for turn in 0..<(calls + round - 1) / round {
            for offset in series.indices {
                let index = (turn + offset) % series.count
                let timed = try timeCalls(min(round, calls - turn * round), warmUp: 0, series[index].call)
                series[index].samples += timed
                series[index].roundMedians.append(timed.sorted()[timed.count / 2])
            }
        }
    }
}

/// Median of a non-empty sample.
func median(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The `p` quantile (0…1) of microsecond samples, in milliseconds.
func percentileMilliseconds(_ samples: [Int64], _ p: Double) -> Double {
    let sorted = samples.sorted()
    return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) / 1000
}

/// What the kernel counts for a running process, from /proc (proc(5)).
enum ProcessCounters {
    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// Time on a CPU of all its threads so far, those that ended too, in seconds: its CPU-time clock
    /// (`clock_getcpuclockid`), counted in nanoseconds. utime + stime (/proc/<pid>/stat fields 14 and 15) count
    /// 10 ms ticks, which over a 10 s window made a 0.06 s/min step of every CPU row, the spread between runs.
    /// The ticks only when the clock cannot be read.
    static func cpuSeconds(_ pid: pid_t) -> Double {
        var clock = clockid_t()
        var now = timespec()
        guard clock_getcpuclockid(pid, &clock) == 0, clock_gettime(clock, &now) == 0 else {
            return cpuSeconds(statFile: "/proc/\(pid)/stat")
        }
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// utime + stime of its main thread alone (quaverd's loop), in seconds (/proc/<pid>/task/<pid>/stat).
    static func mainThreadCPUSeconds(_ pid: pid_t) -> Double { cpuSeconds(statFile: "/proc/\(pid)/task/\(pid)/stat") }

    private static func cpuSeconds(statFile: String) -> Double {
        guard let stat = try? String(contentsOfFile: statFile, encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        // Fields after the parenthesised command name start at field 3 (state).
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / ticksPerSecond
    }

    /// Peak resident set size in KiB (VmHWM in /proc/<pid>/status).
    static func peakRSSKiB(_ pid: pid_t) -> Int { statusKiB(pid, "VmHWM:") }

    /// Resident set size now, in KiB (VmRSS).
    static func residentKiB(_ pid: pid_t) -> Int { statusKiB(pid, "VmRSS:") }

    private static func statusKiB(_ pid: pid_t, _ field: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// One thread's time on a CPU and waiting in a run queue for one, in milliseconds, so far
    /// (`/proc/<pid>/task/<tid>/schedstat`: nanoseconds run, nanoseconds waited, time slices); the calling
    /// thread's when `pid` is nil. A slow answer read against them says whether the thread worked, waited for a
    /// CPU, or slept (a lock, the disk, another process).
    static func schedule(_ pid: pid_t?, thread: pid_t? = nil) -> ThreadSchedule {
        let file = pid.map { "/proc/\($0)/task/\(thread ?? $0)/schedstat" } ?? "/proc/thread-self/schedstat"
        let fields = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: " ").compactMap { Double($0) }
        guard fields.count >= 2 else { return ThreadSchedule() }
        return ThreadSchedule(ranMS: fields[0] / 1_000_000, queuedMS: fields[1] / 1_000_000)
    }

    /// CPU seconds per minute that each of `pids` spends over the same `seconds` of wall time from now.
    static func cpuPerMinute(_ pids: [pid_t], over seconds: Double) -> [Double] {
        let before = pids.map(cpuSeconds), started = Date()
        Thread.sleep(forTimeInterval: seconds)
        let elapsed = Date().timeIntervalSince(started)
        return zip(pids, before).map { (cpuSeconds($0) - $1) * 60 / elapsed }
    }
}

/// A thread's counted time on a CPU and in a run queue (`ProcessCounters.schedule`); subtracted, what it did
/// between two readings.
struct ThreadSchedule {
    var ranMS = 0.0
    var queuedMS = 0.0

    static func - (after: ThreadSchedule, before: ThreadSchedule) -> ThreadSchedule {
        ThreadSchedule(ranMS: after.ranMS - before.ranMS, queuedMS: after.queuedMS - before.queuedMS)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
