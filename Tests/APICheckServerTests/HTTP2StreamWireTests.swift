@testable import APICheckServer
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

/// The HTTP/1.1 bytes the stub handler writes, read back into HTTP/2's head and body parts: in
/// one write or cut anywhere, informational heads first, no body after `HEAD`, 204 or 304,
/// hop-by-hop headers dropped, and bytes that are not a response reset the stream.
@Suite struct HTTP2StreamWireTests {
    let response = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: keep-alive\r\nContent-Length: 8\r\nX-Trace:  t-1 \r\n\r\n{\"id\":1}"

    func channel(method: HTTPMethod = .GET) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: HTTP2StreamWire())
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        try channel.writeInbound(HTTPServerRequestPart.head(HTTPRequestHead(version: .http2, method: method, uri: "/movies/1")))
        let forwarded = try channel.readInbound(as: HTTPServerRequestPart.self)
        guard case .head(let head) = forwarded else {
            Issue.record("the head was not passed on")
            return channel
        }
        // The handler sees HTTP/1.1, whatever the stream's version.
        #expect(head.version == .http1_1)
        return channel
    }

    func parts(_ channel: EmbeddedChannel) throws -> [String] {
        var parts: [String] = []
        while let part = try channel.readOutbound(as: HTTPServerResponsePart.self) {
            switch part {
            case .head(let head):
                parts.append("head \(head.status.code) " + head.headers.map { "\($0.name)=\($0.value)" }.joined(separator: ","))
            case .body(.byteBuffer(let buffer)): parts.append("body " + String(buffer: buffer))
            case .body: parts.append("file")
            case .end: parts.append("end")
            }
        }
        return parts
    }

    @Test func aWholeResponseInOneWrite() throws {
        let channel = try channel()
        try channel.writeOutbound(IOData.byteBuffer(ByteBuffer(string: response)))
        #expect(try parts(channel) == ["head 200 Content-Type=application/json,Content-Length=8,X-Trace=t-1", "body {\"id\":1}", "end"])
        #expect(channel.isActive)
    }

    @Test func aResponseCutAtEveryByte() throws {
        let bytes = Array(response.utf8)
        for cut in 1..<bytes.count {
            let channel = try channel()
            try channel.writeOutbound(IOData.byteBuffer(ByteBuffer(bytes: bytes[..<cut])))
            try channel.writeOutbound(IOData.byteBuffer(ByteBuffer(bytes: bytes[cut...])))
            let received = try parts(channel)
            #expect(received.first?.hasPrefix("head 200") == true && received.last == "end", "cut at \(cut): \(received)")
            #expect(received.filter { $0.hasPrefix("body") }.map { $0.dropFirst(5) }.joined() == "{\"id\":1}", "cut at \(cut)")
        }
    }

    @Test func aContinueThenTheFinalResponse() throws {
        let channel = try channel(method: .POST)
        try channel.writeOutbound(IOData.byteBuffer(ByteBuffer(string: "HTTP/1.1 100 Continue\r\n\r\n")))
        try channel.writeOutbound(IOData.byteBuffer(ByteBuffer(string: "HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n")))
        #expect(try parts(channel) == ["head 100 ", "head 201 Content-Length=0", "end"])
    }

    @Test func noBodyAfterHeadOr204() throws {
        let head = try channel(method: .HEAD)
        try head.writeOutbound(IOData.byteBuffer(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\n")))
        #expect(try parts(head) == ["head 200 Content-Length=8", "end"])
        let noContent = try channel(method: .DELETE)
        try noContent.writeOutbound(IOData.byteBuffer(ByteBuffer(string: "HTTP/1.1 204 No Content\r\nDate: x\r\n\r\n")))
        #expect(try parts(noContent) == ["head 204 Date=x", "end"])
    }

    @Test func bytesThatAreNotAResponseResetTheStream() throws {
        let channel = try channel()
        let written = channel.eventLoop.makePromise(of: Void.self)
        channel.writeAndFlush(IOData.byteBuffer(ByteBuffer(string: "\u{0}\u{1}APICHECK-MALFORMED-RESPONSE \u{7F}\u{2}\r\n\r\n")), promise: written)
        #expect(throws: (any Error).self) { try written.futureResult.wait() }
        #expect(try parts(channel).isEmpty)
        #expect(!channel.isActive)
    }
}
