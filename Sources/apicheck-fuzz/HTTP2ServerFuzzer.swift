import APICheckModel
import APICheckServer
import Foundation
import NIOCore
import NIOEmbedded

/// `server-h2`: raw HTTP/2 frames into one connection of the stub server after the connection
/// preface, on an `EmbeddedChannel` with the server's own HTTP/2 pipeline
/// (``ServerCore/addHTTP2Handlers(to:)``: NIOHTTP2 bounded by the server's limits, its connection
/// manager, and per stream the codec, `HTTP2StreamWire` and `StubHTTPHandler`), serving the stubs
/// of the `server` target.
///
/// The first byte sets the connection up: bit 0 CORS, bit 1 small limits (256-byte header lists,
/// 64-byte bodies), bits 4-7 × 7 the size of each write (0: one write). The rest is what the client
/// sends after the preface (the fuzzer writes the preface itself, so every input reaches frames).
/// Then an hour passes.
///
/// Invariants: what the server sends is a sequence of whole HTTP/2 frames (9-byte headers, no
/// frame over the default 16 KiB maximum), starting with its SETTINGS; and the connection is
/// closed once the hour has passed, whatever the client left open.
enum HTTP2ServerFuzzer {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let flags = input.byte()
        let bytes = preface + Array(input.rest)
        var configuration = StubServer.Configuration(eventLoopThreads: 1, cors: flags & 1 != 0, journalCapacity: 64)
        if flags & 2 != 0 {
            configuration.limits = StubServer.Limits(maximumHeaderBytes: 256, maximumHeaderCount: 8, maximumBodyBytes: 64, maximumPipelinedRequests: 2)
        }
        let core = ServerCore(
            stubs: ServerFuzzer.stubs, source: nil, configuration: configuration, baseURL: ServerFuzzer.baseURL, rewriters: ServerFuzzer.rewriters,
            loops: [:], logger: ServerFuzzer.logger)
        let channel = EmbeddedChannel()
        do {
            try channel.connect(to: SocketAddress(ipAddress: "192.0.2.7", port: 40_000)).wait()
            try core.addHTTP2Handlers(to: channel)
        } catch {
            FuzzCheck.fail("cannot set up the connection: \(error)")
        }
        var output = ServerFuzzer.feed(bytes, step: Int(flags >> 4) * 7, to: channel)
        for _ in 0..<4 {
            channel.embeddedEventLoop.advanceTime(by: .seconds(900))
            output += ServerFuzzer.written(by: channel)
        }
        FuzzCheck.require(!channel.isActive, "the HTTP/2 connection is still open an hour after its last read")
        _ = try? channel.finish(acceptAlreadyClosed: true)
        checkFrames(output)
    }

    /// Walks the frames the server sent.
    static func checkFrames(_ output: [UInt8]) {
        var index = 0
        var count = 0
        while index < output.count {
            FuzzCheck.require(index + 9 <= output.count, "frame \(count + 1) has a cut header: \(output.count - index) bytes")
            let length = Int(output[index]) << 16 | Int(output[index + 1]) << 8 | Int(output[index + 2])
            let type = output[index + 3]
            FuzzCheck.require(length <= 16_384, "frame \(count + 1) (type \(type)) is \(length) bytes, over the default maximum")
            if count == 0 { FuzzCheck.require(type == 4, "the server's first frame is type \(type), not SETTINGS") }
            FuzzCheck.require(index + 9 + length <= output.count, "frame \(count + 1) (type \(type)) is cut: \(length) bytes declared")
            index += 9 + length
            count += 1
        }
    }
}
