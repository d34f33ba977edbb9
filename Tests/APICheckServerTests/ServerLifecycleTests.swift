import APICheckModel
import APICheckServer
import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Testing

/// The server on the application's event loops, and as a swift-service-lifecycle `Service`.
@Suite struct ServerLifecycleTests {
    @Test func anInjectedEventLoopGroupServesAndOutlivesTheServer() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let server = try await StubServer.start(
            stubs: StubSet([stub("hello", "GET", "/hello", body: "hi")]), configuration: testConfiguration(), eventLoopGroup: group)
        let response = try await blockingIO { try rawGET(server.port, "/hello") }
        #expect(response.text == "hi")
        await server.shutdown()
        // The group is the caller's: still running after the server stopped.
        let answer = try await group.next().submit { 42 }.get()
        #expect(answer == 42)
        try await group.shutdownGracefully()
    }

    @Test func aServiceGroupsGracefulShutdownStopsTheServer() async throws {
        let server = try await StubServer.start(stubs: StubSet([stub("hello", "GET", "/hello", body: "hi")]), configuration: testConfiguration())
        let port = server.port
        let serviceGroup = ServiceGroup(services: [server], logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await serviceGroup.run() }
            #expect(try await blockingIO { try rawGET(port, "/hello") }.text == "hi")
            await serviceGroup.triggerGracefulShutdown()
            try await tasks.waitForAll()  // run() returned: the server has stopped
        }
        #expect(throws: (any Error).self) { try rawGET(port, "/hello") }
    }

    @Test func runReturnsWhenTheServerIsShutDownDirectly() async throws {
        let server = try await StubServer.start(stubs: StubSet([]), configuration: testConfiguration())
        async let running: Void = server.run()
        await server.shutdown()
        try await running
    }
}
