import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import NIOTLS

/// `apicheck-bench nio-baseline --body FILE [--port N]`: the reference point issue #4's target is
/// stated against, "a minimal SwiftNIO server": NIO's own HTTP/1.1 pipeline
/// (`configureHTTPServerPipeline`) and one handler that answers every request with 200 and the
/// same bytes, one event loop per core, on 127.0.0.1. No matching, no journal, no `Date` header:
/// the cost of HTTP on SwiftNIO alone, so `Benchmarks/serve.sh` can show what the stub server adds.
///
/// With a TLS context (issue #34): swift-nio-ssl in front, TLS 1.2+, ALPN `h2` then `http/1.1`,
/// and on `h2` NIOHTTP2's pipeline with its HTTP/1 codec per stream before the same handler: the
/// anchor for HTTPS, handshakes and HTTP/2. `cleartextHTTP2`: HTTP/2 without TLS (h2c, prior
/// knowledge) for every connection.
enum MinimalNIOServer {
    static func tlsContext(certificate: String, key: String) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) }, privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = ["h2", "http/1.1"]
        return try NIOSSLContext(configuration: configuration)
    }

    static func run(bodyPath: String, port: Int, tls: NIOSSLContext? = nil, cleartextHTTP2: Bool = false) async throws {
        guard let body = FileManager.default.contents(atPath: bodyPath) else { Benchmark.fail("cannot read the body file \(bodyPath)") }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 1024)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                if let tls {
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
                    }.flatMap {
                        channel.configureHTTP2SecureUpgrade(
                            h2ChannelConfigurator: { channel in http2(channel, body: body) },
                            http1ChannelConfigurator: { channel in http1(channel, body: body) })
                    }
                }
                return cleartextHTTP2 ? http2(channel, body: body) : http1(channel, body: body)
            }
            .bind(host: "127.0.0.1", port: port).get()
        // Written straight to the descriptor (no stdio buffering): the script waits for this line.
        FileHandle.standardOutput.write(Data("minimal SwiftNIO server on http\(tls == nil ? "" : "s")://127.0.0.1:\(channel.localAddress?.port ?? port)/\n".utf8))
        try await channel.closeFuture.get()
    }

    private static func http1(_ channel: any Channel, body: Data) -> EventLoopFuture<Void> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
            try channel.pipeline.syncOperations.addHandler(FixedResponseHandler(body: body))
        }
    }

    private static func http2(_ channel: any Channel, body: Data) -> EventLoopFuture<Void> {
        channel.configureHTTP2Pipeline(mode: .server) { stream in
            stream.eventLoop.makeCompletedFuture {
                try stream.pipeline.syncOperations.addHandler(HTTP2FramePayloadToHTTP1ServerCodec())
                try stream.pipeline.syncOperations.addHandler(FixedResponseHandler(body: body))
            }
        }.map { _ in }
    }
}

/// Answers each request, once its end arrives, with 200 and the fixed body; flushes once per read burst.
private final class FixedResponseHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let body: ByteBuffer
    private let head: HTTPResponseHead

    init(body: Data) {
        self.body = ByteBuffer(bytes: body)
        self.head = HTTPResponseHead(
            version: .http1_1, status: .ok,
            headers: ["Content-Type": "application/json", "Content-Length": String(body.count), "Server": "nio-baseline"]
        )
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.write(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
        context.fireChannelReadComplete()
    }
}
