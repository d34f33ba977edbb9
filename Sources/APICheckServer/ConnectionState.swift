import NIOCore
import NIOHTTP1

/// The state of one HTTP/1.1 connection, without sockets: what is being received, what waits for
/// its turn (pipelining), whether an answer is under way, and how the connection ends.
///
/// ``StubHTTPHandler`` feeds it the channel's events and carries out what it answers; every
/// decision about order, backpressure, `100-continue`, rejection and closing is made here, and is
/// tested here (`ConnectionStateTests`) as well as through `EmbeddedChannel` and real sockets.
struct ConnectionState {
    /// A request being received or waiting for its turn.
    struct Incoming {
        var head: HTTPRequestHead
        /// The `Host` header, read in the same pass as the others.
        var host: String?
        /// `Upgrade` was asked for: NIO's decoder stops parsing after such a request.
        var upgrade: Bool
        var body: ByteBuffer?
        var bodyBytes = 0
        /// `Content-Length`, when given (and within the limit): the body's buffer is sized once.
        var declaredBodyBytes = 0
        /// When its body started arriving (the end of the read burst that brought the head).
        var bodyStarted: NIODeadline?
        var expectsContinue: Bool
        var continueSent = false
    }

    enum Work {
        case request(Incoming)
        /// An answer to a request that cannot be served (400, 413, 431, …); the connection closes after it.
        case reject(status: Int, detail: String)
    }

    /// How the connection's input stands.
    enum Input: Equatable {
        case open
        /// The server is shutting down: the request being received is the last one.
        case quiescing
        /// The peer half-closed: what is queued is answered, then the connection closes.
        case closedByPeer
        /// After a rejection, a held (`timedOut`) answer or a close: input is read and dropped.
        case discarding
    }

    /// What the connection is writing.
    enum Output: Equatable {
        case idle
        /// An answer takes time (latency, a template, a file, a reload); later requests wait.
        case answering
        /// A stub's `timedOut` failure: silent until the idle timeout.
        case holding
        /// Closing or closed: nothing more is written.
        case closing
    }

    /// What to do with the head of a request.
    enum HeadDecision: Equatable {
        case receive(sendContinue: Bool)
        case reject(status: Int, detail: String)
    }

    /// What to do when a request has been received whole.
    enum EndDecision {
        /// Nothing is queued: answer it at once.
        case answer(Incoming)
        /// Queued behind earlier requests: drain the queue.
        case drain
        case none
    }

    /// Whether an idle connection closes.
    enum IdleDecision: Equatable {
        case checkAgain(at: NIODeadline)
        case close
        /// A request head started arriving and did not complete in time (slowloris): 408, close.
        case headTimedOut
        /// A request body arrives slower than ``minimumBodyRate`` after its grace: 408, close.
        case bodyTooSlow
    }

    /// Bytes of a later request's body read while an earlier answer is under way, before reading
    /// pauses: a small window, so a pipelining client's unread body waits in its own socket.
    static let readAheadWindow = 64 << 10

    /// Bytes per second a request body must keep up on average once the header timeout's grace is
    /// over, as Apache's `mod_reqtimeout` (`body=…,MinRate=500`): a drip of a byte a second is
    /// closed, a slow but real upload is not.
    static let minimumBodyRate = 500

    let limits: StubServer.Limits
    private(set) var input = Input.open
    private(set) var output = Output.idle
    private(set) var receiving: Incoming?
    private(set) var queue = CircularBuffer<Work>(initialCapacity: 4)
    private(set) var bufferedBodyBytes = 0
    /// A `read()` was held back because too much is queued (or an answer is held).
    private(set) var heldRead = false
    /// When the first bytes of a request head arrived, until the head is complete: a head must
    /// complete within ``StubServer/Limits/headerTimeout`` however slowly its bytes trickle in.
    private(set) var headStarted: NIODeadline?

    init(limits: StubServer.Limits) {
        self.limits = limits
    }

    /// Whether input is taken in at all.
    var acceptsInput: Bool { input != .discarding && output != .closing }
    var isClosing: Bool { output == .closing }
    var isIdle: Bool { output == .idle }
    /// Whether an answer may promise to keep the connection open.
    var allowsKeepAlive: Bool { input != .quiescing && input != .closedByPeer }

    // MARK: Receiving

    /// A read burst ended. Bytes that made no request part at all, with no request being
    /// received, are the start of a head (a burst that completes a request ends with it, as
    /// clients send them).
    mutating func readBurstEnded(partsDecoded: Int, at now: NIODeadline) {
        if partsDecoded == 0, receiving == nil, headStarted == nil, acceptsInput { headStarted = now }
        if receiving != nil, receiving?.bodyStarted == nil { receiving?.bodyStarted = now }
    }

    /// When the body being received must have arrived, at ``minimumBodyRate`` after a grace of
    /// `grace`; none while reading is held back (the server, not the peer, is slow then).
    func bodyDeadline(grace: TimeAmount) -> NIODeadline? {
        guard let incoming = receiving, let started = incoming.bodyStarted, output == .idle, queue.isEmpty, !heldRead else { return nil }
        return started + grace + .milliseconds(Int64(incoming.bodyBytes) * 1000 / Int64(Self.minimumBodyRate))
    }

    /// Checks a request head against the limits and starts receiving its body.
    mutating func headReceived(_ head: HTTPRequestHead) -> HeadDecision {
        headStarted = nil
        guard head.version.major == 1 else { return .reject(status: 505, detail: "only HTTP/1.0 and HTTP/1.1 are served") }
        // Head size and field count are bounded by the decoder (431 through its headerOverflow).
        // One pass over the headers for everything the server itself needs.
        var host: String?
        var contentLength: String?
        var expect: String?
        var upgrade = head.method == .CONNECT
        for (name, value) in head.headers {
            switch name.utf8.count {
            case 4 where name.caseInsensitiveEquals("host"): host = host ?? value
            case 6 where name.caseInsensitiveEquals("expect"): expect = value
            case 7 where name.caseInsensitiveEquals("upgrade"): upgrade = true
            case 14 where name.caseInsensitiveEquals("content-length"): contentLength = value
            default: break
            }
        }
        if let contentLength, let count = Int(contentLength), count > limits.maximumBodyBytes {
            return .reject(status: 413, detail: "the request body of \(count) bytes is over the limit of \(limits.maximumBodyBytes) bytes")
        }
        var expectsContinue = false
        if let expect {
            guard expect.caseInsensitiveEquals("100-continue") else {
                return .reject(status: 417, detail: "only 'Expect: 100-continue' is supported, not '\(expect)'")
            }
            expectsContinue = head.version.minor >= 1
        }
        receiving = Incoming(head: head, host: host, upgrade: upgrade, expectsContinue: expectsContinue)
        receiving?.declaredBodyBytes = contentLength.flatMap { Int($0) }.map { max($0, 0) } ?? 0
        return .receive(sendContinue: expectsContinue && continueIsDue())
    }

    /// Adds body bytes; false when the body goes over the limit (reject it with 413).
    mutating func bodyReceived(_ buffer: inout ByteBuffer) -> Bool {
        guard var incoming = receiving else { return true }
        receiving = nil  // not shared while mutated: appending must not copy the whole body
        incoming.bodyBytes += buffer.readableBytes
        bufferedBodyBytes += buffer.readableBytes
        guard incoming.bodyBytes <= limits.maximumBodyBytes else {
            bufferedBodyBytes -= incoming.bodyBytes  // dropped with the request
            return false
        }
        if incoming.body == nil {
            // Sized once to the declared length: growing by doubling would hold up to twice the body.
            let rest = incoming.declaredBodyBytes - buffer.readableBytes
            if rest > 0 { buffer.reserveCapacity(minimumWritableBytes: rest) }
            incoming.body = buffer
        } else {
            incoming.body?.writeBuffer(&buffer)
        }
        receiving = incoming
        return true
    }

    mutating func endReceived() -> EndDecision {
        headStarted = nil
        guard let incoming = receiving.take() else { return .none }
        if output == .idle, queue.isEmpty {
            bufferedBodyBytes -= incoming.bodyBytes
            return .answer(incoming)
        }
        queue.append(.request(incoming))
        return .drain
    }

    /// Whether the request being received should get its `100 Continue` now (it is next in
    /// line); marks it sent.
    mutating func takeContinue() -> Bool {
        guard continueIsDue(), var incoming = receiving, incoming.expectsContinue, !incoming.continueSent else { return false }
        incoming.continueSent = true
        receiving = incoming
        return true
    }

    private func continueIsDue() -> Bool { output == .idle && queue.isEmpty }

    /// Queues `status` after the requests before it; nothing more is read.
    mutating func reject(status: Int, detail: String) {
        if let incoming = receiving.take() { bufferedBodyBytes -= incoming.bodyBytes }
        headStarted = nil
        input = .discarding
        queue.append(.reject(status: status, detail: detail))
    }

    // MARK: Answering in order

    /// The next queued work, when no answer is under way.
    mutating func nextWork() -> Work? {
        guard output == .idle, let work = queue.popFirst() else { return nil }
        if case .request(let incoming) = work { bufferedBodyBytes -= incoming.bodyBytes }
        return work
    }

    mutating func answerStarted() {
        if output == .idle { output = .answering }
    }

    mutating func answerFinished() {
        if output == .answering { output = .idle }
    }

    /// A `timedOut` failure: nothing more is written or read until the idle timeout.
    mutating func hold() {
        guard output != .closing else { return }
        output = .holding
        input = .discarding
    }

    /// Whether the connection has nothing left to do and should close.
    var isDone: Bool {
        output == .idle && queue.isEmpty && (input == .closedByPeer || (input == .quiescing && receiving == nil))
    }

    // MARK: Reading

    /// Whether a `read()` goes ahead; when not, it is remembered (``takeHeldRead()``).
    mutating func shouldRead() -> Bool {
        let busy = output != .idle || !queue.isEmpty
        if output == .holding || (busy && (queue.count >= limits.maximumPipelinedRequests || bufferedBodyBytes > Self.readAheadWindow)) {
            heldRead = true
            return false
        }
        return true
    }

    /// Whether a held-back read should be issued now: when no answer is under way (the queue has
    /// been drained), or, while `lingering` after an error answer, to read and drop what the peer
    /// still sends.
    mutating func takeHeldRead(lingering: Bool = false) -> Bool {
        guard heldRead, lingering || output == .idle else { return false }
        heldRead = false
        return true
    }

    // MARK: Ending

    mutating func peerClosedInput() {
        if input != .discarding { input = .closedByPeer }
        if let incoming = receiving.take() { bufferedBodyBytes -= incoming.bodyBytes }
        headStarted = nil
    }

    mutating func quiesce() {
        if input == .open { input = .quiescing }
    }

    /// Closing: nothing more is written or read.
    mutating func close() {
        output = .closing
        input = .discarding
    }

    mutating func channelClosed() {
        output = .closing
        queue.removeAll()
        receiving = nil
        bufferedBodyBytes = 0
        headStarted = nil
    }

    /// An idle connection closes after `timeout` without input, unless an answer is under way
    /// (a `timedOut` hold is idle on purpose), or a peer reads a large body slowly (its unsent
    /// bytes stay above the write buffer's high mark), for at most ten idle timeouts.
    func idleDecision(now: NIODeadline, lastActivity: NIODeadline, timeout: TimeAmount, headTimeout: TimeAmount, writable: Bool) -> IdleDecision {
        // A head in progress has its own deadline, however recently a byte of it arrived; a body
        // must keep a minimum rate.
        // Only while input is taken in: a head cut short by a `timedOut` hold or a rejection has
        // no deadline left (one already past would make the next check due at once, again and
        // again until the idle timeout: a busy loop).
        let headDue = acceptsInput ? headStarted.map { $0 + headTimeout } : nil
        if let headDue, now >= headDue { return .headTimedOut }
        let bodyDue = acceptsInput ? bodyDeadline(grace: headTimeout) : nil
        if let bodyDue, now >= bodyDue { return .bodyTooSlow }
        let due = lastActivity + timeout
        if now < due { return .checkAgain(at: min(due, headDue ?? due, bodyDue ?? due)) }
        let draining = !writable && now < lastActivity + timeout * 10
        if output == .answering || draining { return .checkAgain(at: now + timeout) }
        return .close
    }
}
