import APICheckModel
import APICheckResponder
import Foundation
import NIOCore

/// What one event loop keeps for its connections, touched only on that loop:
///
/// - the served set (shared by every loop: one set, whatever the number of loops) held here
///   once per install and read per request without a reference count, with the scenario
///   selection resolved against it, in this loop's own storage;
/// - copies of the ids and names of the stubs it answered, for the journal (``StubNameCache``);
/// - the `Date` header line of the current second;
/// - the complete responses sent this second, so a stub answered again within the same second
///   (polling clients, many clients of one resource) is written from the same bytes instead of
///   being assembled again.
///
/// Only plain responses are kept: static bodies up to ``maximumBodyBytes``, no latency, HTTP/1.1
/// keep-alive, no CORS. Everything is dropped when the second changes or another set is
/// installed, and at most ``maximumEntries`` responses are kept.
package final class LoopState {
    static let maximumEntries = 512
    static let maximumBodyBytes = 16 << 10

    /// The loop's position in its group: its shard of the journal.
    let index: Int
    /// The server's origin in this loop's own storage: every journal entry holds it, and a
    /// string shared by all loops would have its reference count written from every core.
    let origin: String
    /// This loop's copies of stub ids and names for journal entries.
    let names = StubNameCache()

    init(index: Int, origin: String) {
        self.index = index
        self.origin = String(decoding: Array(origin.utf8), as: UTF8.self)
    }

    // MARK: The served set and the scenario selection

    /// What a request is matched against, as of the last check.
    struct Current {
        /// The served set; `owner` below keeps it alive.
        let served: Unmanaged<ServedStubs>
        let view: ScenarioView
        let selection: ScenarioSelection
    }

    private var owner: ServedStubs?
    private var current: Current?
    private var servedGeneration = -1
    private var scenarioGeneration = -1
    private var selection: ScenarioSelection = [:]

    /// The responder's served set and scenario selection, re-read only when either changed: two
    /// atomic loads per request instead of the responder's shared lock and reference counts.
    func current(of responder: StubResponder) -> Current {
        let served = responder.currentServedGeneration
        let scenarios = responder.currentScenarioGeneration
        if let current, served == servedGeneration, scenarios == scenarioGeneration { return current }
        if scenarios != scenarioGeneration {
            let snapshot = responder.scenarioSnapshot
            selection = Dictionary(
                snapshot.selection.map { (StubNameCache.fresh($0.key), StubNameCache.fresh($0.value)) }, uniquingKeysWith: { first, _ in first })
            scenarioGeneration = snapshot.generation
        }
        if served != servedGeneration || owner == nil {
            let snapshot = responder.servedSnapshot
            owner = snapshot.served
            servedGeneration = snapshot.generation
            // Responses and names of the previous set are not this set's.
            entries.removeAll()
            last = nil
            names.forget()
        }
        let set = owner!
        let fresh = Current(served: Unmanaged.passUnretained(set), view: set.stubs.scenarioView(of: selection), selection: selection)
        current = fresh
        return fresh
    }

    // MARK: Date and recent responses

    private var second = -1
    private var line = ByteBuffer()
    private var entries: [Int: ByteBuffer] = [:]
    /// The last response found or stored: a client polling one resource skips the table.
    private var last: (slot: Int, bytes: ByteBuffer)?

    /// Starts a new second when the clock moved.
    @inline(__always)
    private func tick() {
        let now = time(nil)
        guard now != second else { return }
        second = now
        var buffer = ByteBuffer()
        buffer.reserveCapacity(40)
        buffer.writeHeader("Date", HTTPDate.rfc1123(Date(timeIntervalSince1970: TimeInterval(now))))
        line = buffer
        if !entries.isEmpty { entries.removeAll(keepingCapacity: true) }
        last = nil
    }

    /// `Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n` for now.
    var dateLine: ByteBuffer {
        tick()
        return line
    }

    /// The complete response for `slot` of the current set sent earlier this second, if any.
    func response(forSlot slot: Int) -> ByteBuffer? {
        tick()
        if let last, last.slot == slot { return last.bytes }
        guard let bytes = entries[slot] else { return nil }
        last = (slot, bytes)
        return bytes
    }

    func store(_ bytes: ByteBuffer, forSlot slot: Int) {
        guard entries.count < Self.maximumEntries else { return }
        entries[slot] = bytes
        last = (slot, bytes)
    }
}
