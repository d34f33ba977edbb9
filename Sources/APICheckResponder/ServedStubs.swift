import APICheckModel
import Foundation

/// How a responder delivers its stubs' responses: what the heads it computes once depend on.
public struct ServingOptions: Sendable {
    /// The origin every request arrives at (a server's own, `http://127.0.0.1:8080`), so heads whose
    /// links name `{{baseURL}}` are computed once too. `nil` (in-process, where each request names
    /// its origin): those heads are computed per request.
    public var origin: String?
    /// Origins rewritten to ``origin`` in link-bearing headers and text bodies (a server's `--rewrite-origin`).
    public var rewriters: [OriginRewriter]
    /// What a server adds as `Server` when a stub sets none; `nil` adds nothing.
    public var serverName: String?
    /// The largest body file read into memory to rewrite its origins (larger ones are unservable).
    public var maximumRewrittenFileBytes: Int

    public init(origin: String? = nil, rewriters: [OriginRewriter] = [], serverName: String? = nil, maximumRewrittenFileBytes: Int = 64 << 20) {
        self.origin = origin
        self.rewriters = rewriters
        self.serverName = serverName
        self.maximumRewrittenFileBytes = maximumRewrittenFileBytes
    }
}

/// A stub set as it is served: the set, and per stub response ("slot": a stub's response, or
/// each response of its sequence) the head every transport delivers and its static body, computed
/// once when the set is installed. Immutable; shared by every thread that answers.
///
/// Heads are interned: stubs with the same status and headers share one ``ReplyHead`` (a generated
/// set of 100,000 stubs has a handful). Slot data is kept in arrays of plain values (plus each
/// slot's body, which shares the stub's storage), so a server's event loops read what they send
/// without retaining anything shared by every request.
public final class ServedStubs: Sendable {
    public let stubs: StubSet
    public let options: ServingOptions
    /// Problems found while preparing (unsafe headers left out), one sentence each.
    public let warnings: [String]

    /// Stub `i`'s slots are `firstSlot[i]..<firstSlot[i + 1]`.
    private let firstSlot: [Int32]
    /// Per slot, its head in ``heads``; -1 when the head names the origin and none is fixed.
    private let headIndex: [Int32]
    private let heads: [ReplyHead]
    /// ``heads`` without ownership: read per request without a reference count.
    private let unownedHeads: [Unmanaged<ReplyHead>]
    /// Per slot: the static body (rewritten when a rewriter applies), empty for other bodies.
    private let bodies: [Data]
    /// Per slot: what it needs beyond its head and body (``SlotTraits``).
    private let traits: [SlotTraits]
    /// Heads of the problem documents the responder answers with (404, 500), with the server's name.
    private let notFoundHead: ReplyHead
    private let failedHead: ReplyHead

    /// What a slot needs beyond a static head and body.
    package struct SlotTraits: OptionSet, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Its body is a file or a template, produced per request.
        package static let producedBody = SlotTraits(rawValue: 1)
        /// It simulates a transport failure.
        package static let failure = SlotTraits(rawValue: 2)
        /// It waits before answering.
        package static let latency = SlotTraits(rawValue: 4)
        /// It is one of a sequence's responses.
        package static let sequence = SlotTraits(rawValue: 8)
    }

    public convenience init(_ stubs: StubSet) {
        self.init(stubs, options: ServingOptions())
    }

    public init(_ stubs: StubSet, options: ServingOptions) {
        self.stubs = stubs
        self.options = options
        var firstSlot: [Int32] = [0]
        var headIndex: [Int32] = []
        var heads: [ReplyHead] = []
        var bodies: [Data] = []
        var traits: [SlotTraits] = []
        var warnings: [String] = []
        var interned: [HeadSource: Int32] = [:]
        firstSlot.reserveCapacity(stubs.count + 1)
        headIndex.reserveCapacity(stubs.count)
        bodies.reserveCapacity(stubs.count)
        traits.reserveCapacity(stubs.count)
        for stub in stubs.stubs {
            let responses = stub.sequence.map { $0.responses.isEmpty ? [stub.response] : $0.responses } ?? [stub.response]
            for response in responses {
                let source = HeadSource(status: response.status, headers: response.headers, cookies: response.cookies)
                if let known = interned[source] {
                    headIndex.append(known)
                } else if let (head, dropped) = ReplyHead.make(
                    for: response, origin: options.origin, rewriters: options.rewriters, serverName: options.serverName)
                {
                    if !dropped.isEmpty {
                        warnings.append("\(stub.source): warning: stub \"\(stub.name)\": header \(dropped.joined(separator: ", ")) left out (invalid name or control characters in the value)")
                    }
                    interned[source] = Int32(heads.count)
                    headIndex.append(Int32(heads.count))
                    heads.append(head)
                } else {
                    headIndex.append(-1)
                }
                var slotTraits: SlotTraits = stub.sequence == nil ? [] : .sequence
                if response.failure != nil { slotTraits.insert(.failure) }
                if !response.latency.isZero { slotTraits.insert(.latency) }
                switch response.body {
                case .bytes(let data):
                    bodies.append(Self.rewritten(data, response: response, options: options))
                case .file, .template:
                    bodies.append(Data())
                    slotTraits.insert(.producedBody)
                }
                traits.append(slotTraits)
            }
            firstSlot.append(Int32(headIndex.count))
        }
        self.firstSlot = firstSlot
        self.headIndex = headIndex
        self.heads = heads
        self.unownedHeads = heads.map { Unmanaged.passUnretained($0) }
        self.bodies = bodies
        self.traits = traits
        self.warnings = warnings
        notFoundHead = ReplyHead(status: 404, headers: StubReply.problemHeaders, serverName: options.serverName)
        failedHead = ReplyHead(status: 500, headers: StubReply.problemHeaders, serverName: options.serverName)
    }

    /// What interns a head: two responses with these equal have the same head.
    private struct HeadSource: Hashable {
        var status: Int
        var headers: [HTTPHeader]
        var cookies: [StubCookie]
    }

    /// A static body with the set's origins rewritten, when it is text and a rewriter applies.
    private static func rewritten(_ data: Data, response: StubResponse, options: ServingOptions) -> Data {
        guard !options.rewriters.isEmpty else { return data }
        var bytes = [UInt8](data)
        let contentType = response.headers.value(named: "Content-Type")
        guard OriginRewriter.isText(contentType: contentType, isUTF8: String(validating: bytes, as: UTF8.self) != nil) else { return data }
        for rewriter in options.rewriters { bytes = rewriter.rewrite(bytes) ?? bytes }
        return Data(bytes)
    }

    /// The head of the responder's problem documents: 404 (no stub, a spent sequence) or 500.
    func problemHead(_ status: Int) -> ReplyHead {
        status == 404 ? notFoundHead : failedHead
    }

    // MARK: Slots

    /// The slot of the `call`-th answer (0-based) of stub `index`: the stub's response, or the
    /// sequence's response for that call; `nil` once a sequence set to fail is spent.
    package func slot(of index: Int, call: Int) -> Int? {
        let first = Int(firstSlot[index])
        let count = Int(firstSlot[index + 1]) - first
        guard call >= count else { return first + call }
        guard let sequence = stubs.stubs[index].sequence, !sequence.responses.isEmpty, sequence.afterLast == .fail else { return first + count - 1 }
        return nil
    }

    /// Whether stub `index` answers from a sequence.
    package func hasSequence(_ index: Int) -> Bool {
        traits[Int(firstSlot[index])].contains(.sequence)
    }

    package func traits(ofSlot slot: Int) -> SlotTraits { traits[slot] }

    /// The head of `slot` answered at `origin`: the one computed at install, else (it names the
    /// origin, and the set has none fixed) made now.
    package func head(ofSlot slot: Int, stub index: Int, origin: String) -> ReplyHead {
        let known = headIndex[slot]
        if known >= 0 { return heads[Int(known)] }
        return ReplyHead.make(for: response(ofSlot: slot, stub: index), origin: origin, rewriters: options.rewriters, serverName: options.serverName)!.head
    }

    /// The head of `slot` without a reference count, when it was computed at install: valid while
    /// this set is alive. What a server reads per request.
    package func unownedHead(ofSlot slot: Int) -> Unmanaged<ReplyHead>? {
        let known = headIndex[slot]
        return known >= 0 ? unownedHeads[Int(known)] : nil
    }

    /// The static body of `slot` (rewritten when a rewriter applies).
    package func body(ofSlot slot: Int) -> Data { bodies[slot] }

    /// The stub response `slot` holds.
    package func response(ofSlot slot: Int, stub index: Int) -> StubResponse {
        let stub = stubs.stubs[index]
        guard let sequence = stub.sequence, !sequence.responses.isEmpty else { return stub.response }
        return sequence.responses[slot - Int(firstSlot[index])]
    }
}
