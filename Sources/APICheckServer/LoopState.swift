import APICheckModel
import APICheckResponder
import Foundation
import NIOCore

/// What one event loop keeps for its connections, touched only on that loop:
///
/// - its replica of the served stub set (see ``StubSetReplica``), so matching never shares
///   reference counts with the other loops;
/// - the `Date` header line of the current second;
/// - the complete responses sent this second, so a stub answered again within the same second
///   (polling clients, many clients of one resource) is written from the same bytes instead of
///   being assembled again.
///
/// Only plain responses are kept: static bodies up to ``maximumBodyBytes``, no latency, HTTP/1.1
/// keep-alive, no CORS. Everything is dropped when the second changes, and at most
/// ``maximumEntries`` responses are kept. Entries hold their ``PreparedResponse``, so an identity
/// can never be reused by another set's response while cached.
package final class LoopState {
    static let maximumEntries = 512
    static let maximumBodyBytes = 16 << 10

    /// The loop's position in its group: its shard of the journal.
    let index: Int
    /// The server's origin in this loop's own storage: every journal entry holds it, and a
    /// string shared by all loops would have its reference count written from every core.
    let origin: String

    init(index: Int, origin: String) {
        self.index = index
        self.origin = String(decoding: Array(origin.utf8), as: UTF8.self)
    }

    private struct Entry {
        let prepared: PreparedResponse
        let bytes: ByteBuffer
    }

    /// This loop's replica of the served set, and the install it belongs to.
    private var replica: ServedStubs?
    private var replicaSequence = -1

    /// The replica when it belongs to install `sequence` (the current one); else the caller
    /// matches against the shared set.
    func replica(for sequence: Int) -> ServedStubs? {
        replicaSequence == sequence ? replica : nil
    }

    /// Takes a replica made off the loop; an older one than held is ignored.
    func adopt(_ served: ServedStubs, sequence: Int) {
        guard sequence > replicaSequence else { return }
        replica = served
        replicaSequence = sequence
    }

    /// This loop's copy of the scenario selection, and the generation it was read at.
    private var scenarioGeneration = -1
    private var scenarioSelection: ScenarioSelection = [:]

    /// The responder's current scenario selection, re-read (into this loop's own storage) only
    /// when it changed: one atomic load per request instead of the responder's shared lock.
    func scenarios(of responder: StubResponder) -> ScenarioSelection {
        let generation = responder.currentScenarioGeneration
        if generation != scenarioGeneration {
            let snapshot = responder.scenarioSnapshot
            scenarioSelection = Dictionary(
                snapshot.selection.map { (StubSetReplica.fresh($0.key), StubSetReplica.fresh($0.value)) }, uniquingKeysWith: { first, _ in first }
            )
            scenarioGeneration = snapshot.generation
        }
        return scenarioSelection
    }

    private var second = -1
    private var line = ByteBuffer()
    private var entries: [ObjectIdentifier: Entry] = [:]
    /// The last response found or stored: a client polling one resource skips the table.
    private var last: Entry?

    /// Starts a new second when the clock moved; returns the current one.
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

    /// The complete response for `prepared` sent earlier this second, if any.
    func response(for prepared: PreparedResponse) -> ByteBuffer? {
        tick()
        if let last, last.prepared === prepared { return last.bytes }
        guard let entry = entries[ObjectIdentifier(prepared)], entry.prepared === prepared else { return nil }
        last = entry
        return entry.bytes
    }

    func store(_ bytes: ByteBuffer, for prepared: PreparedResponse) {
        guard entries.count < Self.maximumEntries else { return }
        let entry = Entry(prepared: prepared, bytes: bytes)
        entries[ObjectIdentifier(prepared)] = entry
        last = entry
    }
}
