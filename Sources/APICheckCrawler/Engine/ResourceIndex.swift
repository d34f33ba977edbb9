import APICheckFindings
import APICheckHypermedia
import APICheckModel
import APICheckSpool

/// A normalised URL's identity in 96 bits, so the crawl's visited set does not hold strings
/// (a million URLs as strings take more memory than the rest of the crawl). Twelve bytes, not
/// sixteen: it is most of the index's memory.
///
/// Two SipHash values of the key under different salts (64 and 32 bits of them); the process's
/// random seed only decides which pair of URLs would collide (at a million URLs, about one chance
/// in 10^17).
struct URLKey: Hashable, Sendable {
    private let first: UInt32
    private let second: UInt32
    private let third: UInt32

    init(normalised key: String) {
        var one = Hasher()
        one.combine(0x5EED_0001 as UInt32)
        one.combine(key)
        var two = Hasher()
        two.combine(0x5EED_0002 as UInt32)
        two.combine(key)
        self.init(high: UInt64(bitPattern: Int64(one.finalize())), low: UInt64(bitPattern: Int64(two.finalize())))
    }

    /// From its two halves (only the low 32 bits of `low` are kept).
    init(high: UInt64, low: UInt64) {
        first = UInt32(truncatingIfNeeded: high >> 32)
        second = UInt32(truncatingIfNeeded: high)
        third = UInt32(truncatingIfNeeded: low)
    }

    var high: UInt64 { UInt64(first) << 32 | UInt64(second) }
    var low: UInt64 { UInt64(third) }
}

/// Strings that repeat across a crawl (content types, reasons, rel-path labels), stored once.
struct StringTable {
    private var ids: [String: UInt32] = [:]
    private(set) var strings: [String] = []

    mutating func id(_ string: String) -> UInt32 {
        if let id = ids[string] { return id }
        let id = UInt32(strings.count)
        strings.append(string)
        ids[string] = id
        return id
    }

    subscript(id: UInt32) -> String { strings[Int(id)] }
}

/// What later checks need to know about a resource: every link to it is checked against this.
/// Sixteen bytes; a million resources fit in tens of megabytes.
struct ResourceSummary: Sendable {
    enum State: UInt8, Sendable {
        case queued, response, failed, skipped, timedOut
    }

    var state: State
    /// A response that rules found fault with (its type, its body, a limit it hit): every check
    /// of a link to it fails with it. In the padding byte, so the summary stays 16 bytes.
    var responseHasFindings = false
    /// The status, for a response.
    var status: Int16 = 0
    /// For a response, its `Content-Type` (a ``StringTable`` id + 1; 0 for none); for a failure
    /// or a skip, the reason (a ``StringTable`` id).
    var text: UInt32 = 0
    /// `WWW-Authenticate` of a 401/403 (a ``StringTable`` id + 1; 0 for none).
    var challenge: UInt32 = 0
    /// How long the request took, in milliseconds (reports keep milliseconds).
    var milliseconds: UInt32 = 0
}

/// Every URL the crawl has queued, fetched or skipped, by ``URLKey``, with its ``ResourceSummary``.
///
/// In 64 ``SummaryTable``s by the key's low bits, so that each grows alone: one table of a
/// million entries doubles at once and holds its old and new storage together, and with a single
/// table that moment was a large crawl's peak memory.
struct ResourceIndex {
    private var shards = [SummaryTable](repeating: SummaryTable(), count: Self.shardCount)
    private var strings = StringTable()
    private(set) var count = 0

    private static let shardCount = 64

    private static func shard(_ key: URLKey) -> Int { Int(truncatingIfNeeded: key.low) & (shardCount - 1) }

    private subscript(key: URLKey) -> ResourceSummary? { shards[Self.shard(key)][key] }

    private mutating func set(_ summary: ResourceSummary, for key: URLKey) {
        if shards[Self.shard(key)].set(summary, for: key) { count += 1 }
    }

    func contains(_ key: URLKey) -> Bool { self[key] != nil }

    /// Marks `key` seen; false when it already was.
    mutating func insertQueued(_ key: URLKey) -> Bool {
        guard self[key] == nil else { return false }
        set(ResourceSummary(state: .queued), for: key)
        return true
    }

    mutating func record(_ key: URLKey, _ record: ResourceRecord) {
        var summary = ResourceSummary(state: .queued)
        summary.milliseconds = UInt32(clamping: ReportTime.milliseconds(record.duration))
        switch record.outcome {
        case .response(let status, _):
            summary.state = .response
            summary.status = Int16(clamping: status)
            summary.text = record.contentType.map { strings.id($0) + 1 } ?? 0
            summary.challenge = record.challenge.map { strings.id($0) + 1 } ?? 0
        case .failed(let reason):
            summary.state = .failed
            summary.text = strings.id(reason)
        case .timedOut(let reason):
            summary.state = .timedOut
            summary.text = strings.id(reason)
        case .skipped(let reason):
            summary.state = .skipped
            summary.text = strings.id(reason)
        }
        // Findings at a pointer are about the representation's content, not the answer to the link.
        summary.responseHasFindings = record.findings.contains { $0.sourcePointer == nil }
        set(summary, for: key)
    }

    mutating func recordSkipped(_ key: URLKey, reason: String) {
        set(ResourceSummary(state: .skipped, text: strings.id(reason)), for: key)
    }

    /// What is known about `key`, readably.
    func outcome(of key: URLKey) -> KnownOutcome? {
        guard let summary = self[key] else { return nil }
        let duration = Duration.milliseconds(Int64(summary.milliseconds))
        switch summary.state {
        case .queued:
            return .skipped("not fetched: the crawl stopped before it", duration: .zero)
        case .failed:
            return .failed(strings[summary.text], duration: duration)
        case .timedOut:
            return .timedOut(strings[summary.text], duration: duration)
        case .skipped:
            return .skipped(strings[summary.text], duration: duration)
        case .response:
            return .response(
                status: Int(summary.status), contentType: summary.text == 0 ? nil : strings[summary.text - 1],
                challenge: summary.challenge == 0 ? nil : strings[summary.challenge - 1], hasFindings: summary.responseHasFindings,
                duration: duration)
        }
    }

    enum KnownOutcome {
        case response(status: Int, contentType: String?, challenge: String?, hasFindings: Bool, duration: Duration)
        case failed(String, duration: Duration)
        case timedOut(String, duration: Duration)
        case skipped(String, duration: Duration)
    }
}

/// Rel paths as a tree: each resource stores the node of the link that first led to it, and a
/// path is read back only when a check or finding is written.
struct RelPathTree {
    private var parents: [Int32] = []
    private var labels: [UInt32] = []
    private var table = StringTable()
    private var recent: [Int32: RelPath] = [:]

    /// The root's (empty) path.
    static let root: Int32 = -1

    mutating func node(_ label: String, under parent: Int32) -> Int32 {
        parents.append(parent)
        labels.append(table.id(label))
        return Int32(parents.count - 1)
    }

    /// The path of `node`. Paths read back recently are kept (a few thousand), so the paths of
    /// the links on one page, and of a chain's next page, share their parent's storage.
    mutating func path(_ node: Int32) -> RelPath {
        guard node >= 0 else { return .root }
        if let known = recent[node] { return known }
        var pending: [Int32] = []
        var path = RelPath.root
        var current = node
        while current >= 0 {
            if let known = recent[current] {
                path = known
                break
            }
            pending.append(current)
            current = parents[Int(current)]
        }
        if recent.count + pending.count > 4096 { recent.removeAll(keepingCapacity: true) }
        for step in pending.reversed() {
            path = path.appending(table[labels[Int(step)]])
            recent[step] = path
        }
        return path
    }
}
