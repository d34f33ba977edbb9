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
    /// once, header list size, its own floods and reset-rate guards), ``HTTP2ConnectionEnd`` (idle
    /// timeout, GOAWAY both ways, errors), and per stream the codec, ``HTTP2StreamWire`` and the
    /// stub handler.
    package func addHTTP2Handlers(to channel: any Channel) throws {
        let limits = configuration.limits
        var connection = NIOHTTP2Handler.ConnectionConfiguration()
        connection.initialSettings = [
            HTTP2Setting(parameter: .maxConcurrentStreams, value: limits.maximumConcurrentStreams),
            HTTP2Setting(parameter: .maxHeaderListSize, value: limits.maximumHeaderBytes),
        ]
        let end = HTTP2ConnectionEnd(idleTimeout: Self.timeAmount(limits.idleTimeout), logger: logger)
        // Streams are counted here: with NIOHTTP2's inline multiplexer their creation and closing
        // never travel down the connection's pipeline.
        let counted = NIOLoopBound(end, eventLoop: channel.eventLoop)
        _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
            mode: .server, connectionConfiguration: connection, streamConfiguration: NIOHTTP2Handler.StreamConfiguration()
        ) { streamChannel in
            streamChannel.eventLoop.makeCompletedFuture {
                try self.addStreamHandlers(to: streamChannel)
                counted.value.streamOpened()
                streamChannel.closeFuture.whenComplete { _ in counted.value.streamClosed() }
            }
        }
        try channel.pipeline.syncOperations.addHandler(end)
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

/// When an HTTP/2 connection ends (NIOHTTP2 leaves all of it to the application):
/// - after the idle timeout with no stream open;
/// - when the peer has sent GOAWAY or closed its side (AsyncHTTPClient's shutdown does one of them
///   and waits for the server to close) and no stream is open, or once the last one closes;
/// - on shutdown (`ChannelShouldQuiesceEvent`): GOAWAY to the peer, then as above (the server
///   closes what is left at its shutdown timeout);
/// - on a connection error: NIOHTTP2 answers one (a header list over SETTINGS_MAX_HEADER_LIST_SIZE,
///   a CONTINUATION or control-frame flood, too many resets) with GOAWAY and passes it on; without
///   the close the peer would hold the connection (found by test, and by attacks.py's floods).
final class HTTP2ConnectionEnd: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias InboundOut = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    private let idleTimeout: TimeAmount
    private let logger: Logger
    private var channel: (any Channel)?
    private var idleTimer: Scheduled<Void>?
    private var openStreams = 0
    private var goingAway = false

    init(idleTimeout: TimeAmount, logger: Logger) {
        self.idleTimeout = idleTimeout
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        channel = context.channel
        armIdleTimer()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleTimer?.cancel()
        idleTimer = nil
        channel = nil
    }

    func streamOpened() {
        openStreams += 1
        idleTimer?.cancel()
        idleTimer = nil
    }

    func streamClosed() {
        openStreams = max(0, openStreams - 1)
        guard openStreams == 0 else { return }
        if goingAway { channel?.close(promise: nil) } else { armIdleTimer() }
    }

    private func armIdleTimer() {
        guard let channel else { return }
        idleTimer?.cancel()
        idleTimer = channel.eventLoop.scheduleTask(in: idleTimeout) { channel.close(promise: nil) }
    }

    private func goAway() {
        goingAway = true
        if openStreams == 0 { channel?.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .goAway = unwrapInboundIn(data).payload { goAway() }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, !goingAway {
            let frame = HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: .maxID, errorCode: .noError, opaqueData: nil))
            context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
            goAway()
        } else if case ChannelEvent.inputClosed = event {
            goAway()
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("HTTP/2 connection closed: \(error)", metadata: ["peer": "\(context.channel.remoteAddress.map { "\($0)" } ?? "?")"])
        context.close(promise: nil)
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
