import APICheckModel
import APICheckResponder
import APICheckStubFiles
import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Synchronization
import Testing

@testable import APICheckServer

/// Every event loop serves the one set the responder holds: memory does not grow with the number
/// of loops, and a reload reaches every loop at once.
@Suite struct SharedStubSetTests {
    @Test func everyEventLoopServesTheRespondersOneSet() async throws {
        let stubs = StubSet((0..<50).map { stub("s\($0)", "GET", "/items/\($0)", body: "item \($0)") } + [stub("t", "GET", "/things/{id}", body: "thing")])
        try await withStubServer(stubs, configuration: testConfiguration { $0.eventLoopThreads = 4 }) { server in
            let port = server.port
            // Connections are spread over the loops: every loop answers from the one set.
            let answers = try await blockingIO {
                try (0..<16).map { index in try rawGET(port, index % 2 == 0 ? "/items/\(index)" : "/things/\(index)").text }
            }
            #expect(answers == (0..<16).map { $0 % 2 == 0 ? "item \($0)" : "thing" })
            try await expectEveryLoopServes(server.core.responder.served, core: server.core)

            server.replaceStubs(StubSet([stub("n", "GET", "/items/0", body: "new")]))
            let after = try await blockingIO { try (0..<8).map { _ in try rawGET(port, "/items/0").text } }
            #expect(after == Array(repeating: "new", count: 8))
            try await expectEveryLoopServes(server.core.responder.served, core: server.core)
        }
    }

    /// Each loop that answered holds the responder's current set itself, not a copy of it.
    private func expectEveryLoopServes(_ served: ServedStubs, core: ServerCore, sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws {
        let responder = core.responder
        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for (loop, state) in core.loopStates {
                group.addTask {
                    try await loop.submit { ObjectIdentifier(state.value.current(of: responder).served.takeUnretainedValue()) }.get()
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(identities.count == 4, sourceLocation: sourceLocation)
        #expect(identities.allSatisfy { $0 == ObjectIdentifier(served) }, sourceLocation: sourceLocation)
    }

    /// The status line comes from the responder's table, which mirrors NIO's reason phrases.
    @Test func theResponderWritesNIOsReasonPhrases() {
        for status in 100...599 {
            #expect(WireRules.reasonPhrase(status) == HTTPResponseStatus(statusCode: status).reasonPhrase, "\(status)")
        }
    }

    /// The library never trims the process's heap; the executable may, through the configuration:
    /// the budget calls it once, after a burst of request bodies is over.
    @Test func freeMemoryIsReleasedOnlyThroughTheConfiguredCall() async throws {
        let loop = EmbeddedEventLoop()
        let released = Mutex(0)
        let budget = BodyMemoryBudget(limit: 256 << 20, timerLoop: loop, releaseFreeMemory: { released.withLock { $0 += 1 } })
        #expect(budget.reserve(20 << 20))
        budget.release(20 << 20)
        loop.advanceTime(by: BodyMemoryBudget.trimDelay)
        let deadline = ContinuousClock.now + .seconds(10)
        while released.withLock({ $0 }) == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(released.withLock { $0 } == 1)

        // A small burst gives nothing back.
        #expect(budget.reserve(1 << 20))
        budget.release(1 << 20)
        loop.advanceTime(by: BodyMemoryBudget.trimDelay)
        try await Task.sleep(for: .milliseconds(200))
        #expect(released.withLock { $0 } == 1)
        try await loop.shutdownGracefully()
    }
}
