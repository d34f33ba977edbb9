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
        // Not the listening channel's closeFuture: awaited after the event loops are gone, a
        // future's callback could never run.
        await withTaskCancellationOrGracefulShutdownHandler {
            await self.waitUntilStopped()
        } onCancelOrGracefulShutdown: {
            Task { await self.shutdown() }
        }
    }
}
