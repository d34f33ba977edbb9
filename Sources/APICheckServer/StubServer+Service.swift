import NIOCore
import ServiceLifecycle

/// A running server is a swift-service-lifecycle `Service`: add it to the application's
/// `ServiceGroup` and the group's graceful shutdown (SIGTERM, a sibling service ending) stops it
/// the way ``StubServer/shutdown()`` does: no new connections, requests in flight finish, then
/// the rest close.
///
/// ```swift
/// let server = try await StubServer.start(stubs: stubs, eventLoopGroup: .singletonMultiThreadedEventLoopGroup)
/// let group = ServiceGroup(services: [server, app], gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()
/// ```
extension StubServer: Service {
    /// Serves until the service group shuts down gracefully, the task is cancelled, or someone
    /// calls ``shutdown()``; returns once the server has stopped.
    public func run() async throws {
        let listener = serverChannel
        await withTaskCancellationOrGracefulShutdownHandler {
            // The listening socket closes first in every way of stopping.
            try? await listener.closeFuture.get()
        } onCancelOrGracefulShutdown: {
            Task { await self.shutdown() }
        }
        await shutdown()  // waits for a shutdown already under way; starts one otherwise
    }
}
