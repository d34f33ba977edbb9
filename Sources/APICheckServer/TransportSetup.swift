import Logging
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOSSL
import NIOTLS

/// How an accepted connection speaks: cleartext HTTP/1.1 (the default), TLS then HTTP/1.1 or
/// HTTP/2 by ALPN, or cleartext HTTP/2 for clients that open with its preface (`--h2c`).
/// Each ends in the same ``StubHTTPHandler``; HTTP/2 puts one on every stream.
package enum Transport: Sendable, Equatable {
    case cleartext
    case tls
    case http2

    /// Whether a body file can go to the socket as a file region (`sendfile`): only when nothing
    /// between the handler and the socket must see its bytes.
    var sendsFileRegions: Bool { self == .cleartext }
}

extension ServerCore {
    /// Sets up an accepted connection for the configured transport.
    func addTransportHandlers(to channel: any Channel, tls context: NIOSSLContext?) throws {
        let pipeline = channel.pipeline.syncOperations
        if let context {
            try pipeline.addHandler(NIOSSLServerHandler(context: context))
            try pipeline.addHandler(
                TLSConnectionSetup(timeout: Self.timeAmount(configuration.limits.headerTimeout), logger: logger) { channel, protocolName in
                    if protocolName == "h2" {
                        try self.addHTTP2Handlers(to: channel)
                    } else {
                        try self.addConnectionHandlers(to: channel, transport: .tls)
                    }
                })
        } else if configuration.cleartextHTTP2 {
            try pipeline.addHandler(ByteToMessageHandler(PriorKnowledgeSniffer(core: self)))
        } else {
            try addConnectionHandlers(to: channel)
        }
    }

    /// HTTP/2 on a connection: NIOHTTP2's frame handler bounded by the server's limits (streams at
    /// once, header list size, its own floods and reset-rate guards), connection management
    /// (idle timeout, GOAWAY on shutdown), and per stream the codec, ``HTTP2StreamWire`` and the
    /// stub handler.
    package func addHTTP2Handlers(to channel: any Channel) throws {
        let limits = configuration.limits
        let manager = NIOHTTP2ServerConnectionManagementHandler(
            eventLoop: channel.eventLoop,
            configuration: .init(
                maxIdleTime: Self.timeAmount(limits.idleTimeout), maxAge: nil, maxGraceTime: Self.timeAmount(configuration.shutdownTimeout), keepalive: nil)
        )
        var connection = NIOHTTP2Handler.ConnectionConfiguration()
        connection.initialSettings = [
            HTTP2Setting(parameter: .maxConcurrentStreams, value: limits.maximumConcurrentStreams),
            HTTP2Setting(parameter: .maxHeaderListSize, value: limits.maximumHeaderBytes),
        ]
        let stream = NIOHTTP2Handler.StreamConfiguration()
        // The manager counts streams from the events NIOHTTP2 sends down the pipeline (given its
        // stream delegate as well, it would count each twice).
        _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
            mode: .server, connectionConfiguration: connection, streamConfiguration: stream
        ) { streamChannel in
            streamChannel.eventLoop.makeCompletedFuture { try self.addStreamHandlers(to: streamChannel) }
        }
        try channel.pipeline.syncOperations.addHandler(manager)
        try channel.pipeline.syncOperations.addHandler(FirstStreamDeadline(timeout: Self.timeAmount(limits.idleTimeout)))
        try channel.pipeline.syncOperations.addHandler(ConnectionErrorCloser(logger: logger))
    }

    /// One HTTP/2 stream: NIOHTTP2's HTTP/1 codec, the wire adapter, the stub handler.
    func addStreamHandlers(to stream: any Channel) throws {
        let pipeline = stream.pipeline.syncOperations
        try pipeline.addHandler(HTTP2FramePayloadToHTTP1ServerCodec())
        try pipeline.addHandler(HTTP2StreamWire())
        try pipeline.addHandler(StubHTTPHandler(core: self, loopState: loopState(for: stream.eventLoop), transport: .http2))
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }
}

/// Ends an HTTP/2 connection on a connection error. NIOHTTP2 answers one (a header list over
/// SETTINGS_MAX_HEADER_LIST_SIZE, a CONTINUATION or control-frame flood, too many resets) with
/// GOAWAY and passes the error on, leaving the close to the application: without this the peer
/// would hold the connection until the idle timeout.
final class ConnectionErrorCloser: ChannelInboundHandler {
    typealias InboundIn = NIOAny
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("HTTP/2 connection closed: \(error)", metadata: ["peer": "\(context.channel.remoteAddress.map { "\($0)" } ?? "?")"])
        context.close(promise: nil)
    }
}

/// An HTTP/2 connection that opens no stream is closed after the idle timeout. NIOHTTP2's
/// connection manager starts its idle timer when the channel becomes active or a last stream
/// closes; after ALPN the channel is long active, so before the first stream nothing would end it.
final class FirstStreamDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount) { self.timeout = timeout }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        let opened = event is NIOHTTP2StreamCreatedEvent
        context.fireUserInboundEventTriggered(event)
        if opened { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }
}

/// Until the TLS handshake completes, then gone: a client that never finishes it (a ClientHello
/// a byte at a time, plaintext to the TLS port) is closed within the head timeout, handshake
/// errors end the connection quietly (logged at debug: they are the client's), and on completion
/// the protocol ALPN chose (`h2`, else HTTP/1.1) sets the rest of the pipeline up at once. One
/// handler and one removal per connection where NIO's ALPN handler and a separate guard took two.
final class TLSConnectionSetup: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let timeout: TimeAmount
    private let logger: Logger
    private let configure: (any Channel, String?) throws -> Void
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount, logger: Logger, configure: @escaping (any Channel, String?) throws -> Void) {
        self.timeout = timeout
        self.logger = logger
        self.configure = configure
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let logger = self.logger
        timer = context.eventLoop.scheduleTask(in: timeout) {
            let context = loopBound.value
            logger.debug("TLS handshake not completed in time; connection closed", metadata: ["peer": "\(context.channel.remoteAddress.map { "\($0)" } ?? "?")"])
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case TLSUserEvent.handshakeCompleted(let negotiated) = event else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        timer?.cancel()
        timer = nil
        do {
            try configure(context.channel, negotiated)
        } catch {
            logger.error("cannot set up a TLS connection: \(error)")
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("TLS handshake failed: \(error)", metadata: ["peer": "\(context.channel.remoteAddress.map { "\($0)" } ?? "?")"])
        context.close(promise: nil)
    }
}

/// On a cleartext port with `--h2c`: a connection whose first bytes are HTTP/2's connection
/// preface speaks HTTP/2; any other is HTTP/1.1. Decides on the first bytes that differ from the
/// preface (or on all 24 of it), then hands over everything read and leaves.
final class PriorKnowledgeSniffer: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    private let core: ServerCore

    init(core: ServerCore) { self.core = core }

    func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        let seen = min(view.count, Self.preface.count)
        let isPreface = view.prefix(seen).elementsEqual(Self.preface.prefix(seen))
        guard !isPreface || seen == Self.preface.count else { return .needMoreData }
        if isPreface {
            try core.addHTTP2Handlers(to: context.channel)
        } else {
            try core.addConnectionHandlers(to: context.channel)
        }
        let bytes = buffer.readSlice(length: buffer.readableBytes)!
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        context.fireChannelRead(NIOAny(bytes))
        return .continue
    }
}
