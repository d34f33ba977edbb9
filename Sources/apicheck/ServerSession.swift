import APICheckServer
import Dispatch
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Runs a started server as a service until the first SIGINT or SIGTERM, then shuts it down
/// gracefully (requests in flight finish). `serve` and `record` share it.
func runUntilSignalled(_ server: StubServer, termination: TerminationSignal, logger: Logger) async throws {
    let services = ServiceGroup(services: [server], logger: logger)
    let signals = termination.signals
    defer { withExtendedLifetime(termination) {} }  // its signal sources live as long as the server
    try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await services.run() }
        tasks.addTask {
            for await _ in signals {
                logger.info("stopping: finishing requests in flight")
                await services.triggerGracefulShutdown()
                return
            }
        }
        try await tasks.next()  // the group ended: the server has stopped
        tasks.cancelAll()
    }
}

/// SIGINT and SIGTERM, caught from the moment this is made (a dispatch signal source registers
/// asynchronously, so it is made before the URL is printed): ``signals`` yields the first, and a
/// second one exits at once (for a shutdown that hangs).
final class TerminationSignal {
    let signals: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    init() {
        let (signals, continuation) = AsyncStream.makeStream(of: Int32.self)
        let received = Mutex(0)
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                let count = received.withLock { count in
                    count += 1
                    return count
                }
                if count > 1 { Foundation.exit(130) }
                continuation.yield(signalNumber)
            }
            source.resume()
            sources.append(source)
        }
        self.signals = signals
        self.sources = sources
    }
}
