import NIOCore
import NIOHTTP1
import Testing

@testable import APICheckServer

/// The connection state machine, without sockets or channels.
@Suite struct ConnectionStateTests {
    private func limits(pipelined: Int = 4, body: Int = 100) -> StubServer.Limits {
        var limits = StubServer.Limits()
        limits.maximumPipelinedRequests = pipelined
        limits.maximumBodyBytes = body
        return limits
    }

    private func head(_ uri: String, _ headers: [(String, String)] = [], version: HTTPVersion = .http1_1) -> HTTPRequestHead {
        HTTPRequestHead(version: version, method: .GET, uri: uri, headers: HTTPHeaders(headers))
    }

    private func receive(_ state: inout ConnectionState, _ uri: String) -> ConnectionState.EndDecision {
        _ = state.headReceived(head(uri))
        return state.endReceived()
    }

    @Test func pipelinedRequestsWaitForTheAnswerBeforeThemInOrder() {
        var state = ConnectionState(limits: limits())
        guard case .answer(let first) = receive(&state, "/a") else { Issue.record("the first request is answered at once"); return }
        #expect(first.head.uri == "/a")
        state.answerStarted()  // /a takes time (latency)
        guard case .drain = receive(&state, "/b"), case .drain = receive(&state, "/c") else { Issue.record("later ones queue"); return }
        let result1 = state.nextWork()
        #expect(result1 == nil, "nothing goes while /a is answered")
        state.answerFinished()
        let order = [state.nextWork(), state.nextWork()].map { work -> String? in
            if case .request(let incoming)? = work { return incoming.head.uri }
            return nil
        }
        #expect(order == ["/b", "/c"])
        let result2 = state.nextWork()
        #expect(result2 == nil)
    }

    @Test func readsStopWhenTheQueueIsFullAndResumeWhenItDrains() {
        var state = ConnectionState(limits: limits(pipelined: 2))
        _ = receive(&state, "/a")
        state.answerStarted()
        _ = receive(&state, "/b")
        let result3 = state.shouldRead()
        #expect(result3)
        _ = receive(&state, "/c")
        let result4 = state.shouldRead()
        #expect(!result4, "two queued behind an answer in progress: hold reads")
        let result5 = state.takeHeldRead()
        #expect(!result5, "not while the answer is under way")
        state.answerFinished()
        _ = state.nextWork()
        _ = state.nextWork()
        let result6 = state.shouldRead()
        #expect(result6)
    }

    @Test func aHeldReadIsReleasedOnlyOnce() {
        var state = ConnectionState(limits: limits(pipelined: 1))
        _ = receive(&state, "/a")
        state.answerStarted()
        _ = receive(&state, "/b")
        let result7 = state.shouldRead()
        #expect(!result7)
        state.answerFinished()
        _ = state.nextWork()
        let result8 = state.takeHeldRead()
        #expect(result8)
        let result9 = state.takeHeldRead()
        #expect(!result9)
    }

    @Test func continueIsSentOnlyWhenTheRequestIsNextInLine() {
        var state = ConnectionState(limits: limits())
        let result10 = state.headReceived(head("/upload", [("Expect", "100-continue")]))
        #expect(result10 == .receive(sendContinue: true))
        let result11 = state.takeContinue()
        #expect(result11)
        let result12 = state.takeContinue()
        #expect(!result12, "once")
        _ = state.endReceived()

        var busy = ConnectionState(limits: limits())
        _ = receive(&busy, "/slow")
        busy.answerStarted()
        let result13 = busy.headReceived(head("/upload", [("Expect", "100-continue")]))
        #expect(result13 == .receive(sendContinue: false))
        let result14 = busy.takeContinue()
        #expect(!result14)
        busy.answerFinished()
        let result15 = busy.takeContinue()
        #expect(result15, "its turn has come")
        // HTTP/1.0 clients do not know 100 Continue.
        var old = ConnectionState(limits: limits())
        let result16 = old.headReceived(head("/upload", [("Expect", "100-continue")], version: .http1_0))
        #expect(result16 == .receive(sendContinue: false))
    }

    @Test func headsOverTheLimitsOrUnsupportedAreRejectedAndInputIsDropped() {
        var state = ConnectionState(limits: limits(body: 10))
        let result17 = state.headReceived(head("/a", [("Content-Length", "11")]))
        #expect(result17 == .reject(status: 413, detail: "the request body of 11 bytes is over the limit of 10 bytes"))
        guard case .reject(417, _) = state.headReceived(head("/a", [("Expect", "something")])) else { Issue.record("417"); return }
        guard case .reject(505, _) = state.headReceived(head("/a", version: HTTPVersion(major: 2, minor: 0))) else { Issue.record("505"); return }

        state.reject(status: 413, detail: "too big")
        #expect(!state.acceptsInput)
        guard case .reject(413, _)? = state.nextWork() else { Issue.record("the rejection is answered in turn"); return }
    }

    @Test func aBodyOverTheLimitIsRefusedWhileReading() {
        var state = ConnectionState(limits: limits(body: 4))
        _ = state.headReceived(head("/a"))
        var first = ByteBuffer(string: "abc")
        let result18 = state.bodyReceived(&first)
        #expect(result18)
        var second = ByteBuffer(string: "de")
        let result19 = state.bodyReceived(&second)
        #expect(!result19)
    }

    @Test func aHalfClosedPeerGetsItsQueuedAnswersThenTheConnectionCloses() {
        var state = ConnectionState(limits: limits())
        _ = receive(&state, "/a")
        state.answerStarted()
        _ = receive(&state, "/b")
        state.peerClosedInput()
        #expect(!state.allowsKeepAlive)
        #expect(!state.isDone, "answers are still owed")
        state.answerFinished()
        _ = state.nextWork()
        #expect(state.isDone)
    }

    @Test func quiescingWaitsForTheRequestBeingReceived() {
        var state = ConnectionState(limits: limits())
        _ = state.headReceived(head("/a"))
        state.quiesce()
        #expect(!state.isDone, "its body is still coming")
        guard case .answer = state.endReceived() else { Issue.record("it is answered"); return }
        #expect(state.isDone)
    }

    @Test func aHeldAnswerIsIdleButAnAnswerInProgressIsNot() {
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
        let timeout = TimeAmount.seconds(5)
        var state = ConnectionState(limits: limits())
        #expect(state.idleDecision(now: start + .seconds(1), lastActivity: start, timeout: timeout, headTimeout: .seconds(10), writable: true) == .checkAgain(at: start + timeout))
        #expect(state.idleDecision(now: start + .seconds(6), lastActivity: start, timeout: timeout, headTimeout: .seconds(10), writable: true) == .close)
        #expect(state.idleDecision(now: start + .seconds(6), lastActivity: start, timeout: timeout, headTimeout: .seconds(10), writable: false) == .checkAgain(at: start + .seconds(11)), "a slow reader")
        _ = receive(&state, "/slow")
        state.answerStarted()
        #expect(state.idleDecision(now: start + .seconds(6), lastActivity: start, timeout: timeout, headTimeout: .seconds(10), writable: true) == .checkAgain(at: start + .seconds(11)))
        state.answerFinished()
        state.hold()
        #expect(state.idleDecision(now: start + .seconds(6), lastActivity: start, timeout: timeout, headTimeout: .seconds(10), writable: true) == .close, "a timedOut hold ends at the idle timeout")
        #expect(!state.acceptsInput)
    }
}

/// The head deadline (slowloris), without sockets.
@Suite struct ConnectionStateHeadDeadlineTests {
    private let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
    private let idle = TimeAmount.seconds(30)
    private let head = TimeAmount.seconds(10)

    private func decide(_ state: ConnectionState, at offset: TimeAmount, lastActivity: TimeAmount) -> ConnectionState.IdleDecision {
        state.idleDecision(now: start + offset, lastActivity: start + lastActivity, timeout: idle, headTimeout: head, writable: true)
    }

    @Test func bytesThatMakeNoPartStartAHeadAndItsDeadlineHoldsHoweverActiveThePeer() {
        var state = ConnectionState(limits: StubServer.Limits())
        state.readBurstEnded(partsDecoded: 0, at: start)
        #expect(state.headStarted == start)
        // A byte every second keeps it from idling, not from its deadline.
        state.readBurstEnded(partsDecoded: 0, at: start + .seconds(5))
        #expect(decide(state, at: .seconds(6), lastActivity: .seconds(5)) == .checkAgain(at: start + head))
        #expect(decide(state, at: .seconds(10), lastActivity: .seconds(9)) == .headTimedOut)
    }

    /// Found by `scripts/fuzz server` (Fuzz/Corpus/server keeps the input: `GET /slow`, `GET
    /// /held`, then `OPTIONS ` and no more): a head begun before a `timedOut` hold kept its past
    /// deadline in the next check's time, so the check was due at once, again and again, until
    /// the idle timeout: a busy loop on the connection's event loop.
    @Test func aHeadCutShortByAHoldSetsNoDeadlineInThePast() {
        var state = ConnectionState(limits: StubServer.Limits())
        state.readBurstEnded(partsDecoded: 0, at: start)
        state.hold()
        #expect(decide(state, at: .seconds(12), lastActivity: .zero) == .checkAgain(at: start + idle))
        #expect(decide(state, at: .seconds(31), lastActivity: .zero) == .close)
    }

    @Test func aCompletedRequestOrHeadEndsTheDeadline() {
        var state = ConnectionState(limits: StubServer.Limits())
        state.readBurstEnded(partsDecoded: 0, at: start)
        _ = state.headReceived(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/"))
        #expect(state.headStarted == nil)
        _ = state.endReceived()
        // The burst that completed a request starts nothing: the connection is merely idle.
        state.readBurstEnded(partsDecoded: 2, at: start)
        #expect(state.headStarted == nil)
        #expect(decide(state, at: .seconds(20), lastActivity: .zero) == .checkAgain(at: start + idle))
        #expect(decide(state, at: .seconds(31), lastActivity: .zero) == .close)
    }

    @Test func aBodyArrivingSlowlyIsNotAHead() {
        var state = ConnectionState(limits: StubServer.Limits())
        _ = state.headReceived(HTTPRequestHead(version: .http1_1, method: .PUT, uri: "/", headers: ["Content-Length": "10"]))
        state.readBurstEnded(partsDecoded: 1, at: start)
        state.readBurstEnded(partsDecoded: 0, at: start + .seconds(1))
        #expect(state.headStarted == nil, "a body is being received")
    }

    @Test func bodyBytesAreGivenBackWhenARequestIsRejectedOrTheConnectionCloses() {
        var limits = StubServer.Limits()
        limits.maximumBodyBytes = 8
        var state = ConnectionState(limits: limits)
        _ = state.headReceived(HTTPRequestHead(version: .http1_1, method: .PUT, uri: "/"))
        var buffer = ByteBuffer(string: "12345")
        let accepted = state.bodyReceived(&buffer)
        #expect(accepted)
        #expect(state.bufferedBodyBytes == 5)
        var more = ByteBuffer(string: "6789")
        let acceptedMore = state.bodyReceived(&more)
        #expect(!acceptedMore, "over the limit")
        #expect(state.bufferedBodyBytes == 0, "the dropped request holds nothing")
        state.reject(status: 413, detail: "too large")
        #expect(state.bufferedBodyBytes == 0)
    }
}
