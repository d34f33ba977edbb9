import NIOCore
import NIOHTTP1

/// One HTTP/2 stream seen by the same ``StubHTTPHandler`` as every HTTP/1.1 connection, so
/// matching, answering, latency, faults, the admin API, CORS and the bounds exist once.
///
/// Inbound, NIOHTTP2's codec hands over the request; it reaches the handler as HTTP/1.1 (its
/// keep-alive and caching rules then hold as for any 1.1 client). Outbound, the handler writes the
/// response's HTTP/1.1 bytes; they are read back here into a head and body parts for the codec,
/// which makes HEADERS and DATA frames of them. Hop-by-hop headers are dropped (HTTP/2 forbids
/// them). Bytes that are not a response (the `malformed-response` fault) reset the stream, as
/// closing it does: on HTTP/2 every connection fault is a stream reset.
final class HTTP2StreamWire: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = IOData
    typealias OutboundOut = HTTPServerResponsePart

    /// Where the response being read back is.
    enum State: Equatable {
        /// Waiting for (the rest of) a head; a 1xx head returns here.
        case head
        /// This many body bytes still to come.
        case body(remaining: Int)
        /// The response ended; nothing more is sent on this stream.
        case done
        /// Not a response: the stream was reset.
        case failed
    }

    private(set) var state = State.head
    private var pending: ByteBuffer?
    private var requestIsHead = false
    /// A head larger than this is not one the handler wrote.
    static let maximumHeadBytes = 1 << 20

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var part = unwrapInboundIn(data)
        if case .head(var head) = part {
            requestIsHead = head.method == .HEAD
            head.version = .http1_1
            part = .head(head)
        }
        context.fireChannelRead(wrapInboundOut(part))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .byteBuffer(var buffer) = unwrapOutboundIn(data) else {
            // The handler streams files as bytes on HTTP/2; a file region cannot be framed.
            fail(context: context, promise: promise)
            return
        }
        var parts: [HTTPServerResponsePart] = []
        while buffer.readableBytes > 0 || state == .body(remaining: 0) {
            switch state {
            case .head:
                if pending != nil {
                    pending!.writeBuffer(&buffer)
                } else {
                    pending = buffer
                    buffer.moveReaderIndex(to: buffer.writerIndex)
                }
                guard let (head, rest) = Self.takeHead(from: &pending!) else {
                    if pending!.readableBytes > Self.maximumHeadBytes { state = .failed }
                    break
                }
                pending = nil
                guard let head else {
                    state = .failed
                    break
                }
                buffer = rest
                parts.append(.head(head))
                let status = Int(head.status.code)
                if status < 200 { continue }  // 100 Continue: the final head follows
                let length = head.headers.first(name: "content-length").flatMap(Int.init) ?? 0
                let bodiless = requestIsHead || status == 204 || status == 304
                state = .body(remaining: bodiless ? 0 : length)
            case .body(let remaining):
                if remaining == 0 {
                    parts.append(.end(nil))
                    state = .done
                    continue
                }
                let take = min(remaining, buffer.readableBytes)
                if let slice = buffer.readSlice(length: take) { parts.append(.body(.byteBuffer(slice))) }
                state = .body(remaining: remaining - take)
            case .done, .failed:
                buffer.moveReaderIndex(to: buffer.writerIndex)
            }
            if state == .failed || state == .done { break }
            if buffer.readableBytes == 0, state != .body(remaining: 0) { break }
        }
        if state == .failed {
            fail(context: context, promise: promise)
            return
        }
        guard let last = parts.popLast() else {
            promise?.succeed()
            return
        }
        for part in parts { context.write(wrapOutboundOut(part), promise: nil) }
        context.write(wrapOutboundOut(last), promise: promise)
    }

    private func fail(context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        state = .failed
        promise?.fail(ChannelError.ioOnClosedChannel)
        context.close(promise: nil)
    }

    /// Headers a response must not carry on HTTP/2 (RFC 9113 §8.2.2), lower case.
    static let hopByHop: [[UInt8]] = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"].map { Array($0.utf8) }

    /// The head at the front of `buffer` when it is whole (`nil` inside means not a response
    /// head), and the bytes after it. Reads bytes, not `String`s: it runs for every response.
    static func takeHead(from buffer: inout ByteBuffer) -> (HTTPResponseHead?, ByteBuffer)? {
        let view = buffer.readableBytesView
        guard let end = Self.endOfHead(in: view) else { return nil }
        let head = parseHead(view[view.startIndex..<end])
        buffer.moveReaderIndex(forwardBy: end + 4 - view.startIndex)
        return (head, buffer.slice())
    }

    /// `HTTP/1.x NNN reason` then `Name: value` lines, CRLF-separated (the stub handler's own
    /// output: anything else is `nil`).
    static func parseHead(_ bytes: ByteBufferView.SubSequence) -> HTTPResponseHead? {
        var lines = LineIterator(bytes)
        guard let statusLine = lines.next(), statusLine.count >= 12, statusLine.starts(with: "HTTP/1.".utf8),
            statusLine[statusLine.startIndex + 8] == UInt8(ascii: " ")
        else { return nil }
        var code = 0
        for byte in statusLine[(statusLine.startIndex + 9)..<(statusLine.startIndex + 12)] {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            code = code * 10 + Int(byte - 0x30)
        }
        guard code >= 100 else { return nil }
        var headers = HTTPHeaders()
        while let line = lines.next() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else { return nil }
            let name = line[line.startIndex..<colon]
            if hopByHop.contains(where: { $0.count == name.count && zip($0, name).allSatisfy { $0 == ($1 | 0x20) } }) { continue }
            var valueStart = colon + 1
            while valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") || line[valueStart] == UInt8(ascii: "\t") { valueStart += 1 }
            var valueEnd = line.endIndex
            while valueEnd > valueStart, line[valueEnd - 1] == UInt8(ascii: " ") || line[valueEnd - 1] == UInt8(ascii: "\t") { valueEnd -= 1 }
            headers.add(name: String(decoding: name, as: UTF8.self), value: String(decoding: line[valueStart..<valueEnd], as: UTF8.self))
        }
        return HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: code), headers: headers)
    }

    /// The CRLF-separated lines of a head.
    struct LineIterator: IteratorProtocol {
        let bytes: ByteBufferView.SubSequence
        var position: Int

        init(_ bytes: ByteBufferView.SubSequence) {
            self.bytes = bytes
            self.position = bytes.startIndex
        }

        mutating func next() -> ByteBufferView.SubSequence? {
            guard position < bytes.endIndex else { return nil }
            var end = position
            while end < bytes.endIndex, !(bytes[end] == 13 && end + 1 < bytes.endIndex && bytes[end + 1] == 10) { end += 1 }
            let line = bytes[position..<end]
            position = end + 2
            return line
        }
    }

    private static func endOfHead(in view: ByteBufferView) -> Int? {
        var index = view.startIndex
        let last = view.endIndex - 3
        while index < last {
            if view[index] == 13, view[index + 1] == 10, view[index + 2] == 13, view[index + 3] == 10 { return index }
            index += 1
        }
        return nil
    }
}
