import APICheckModel
import APICheckResponder
import Foundation
import NIOCore
import NIOHTTP1

/// Spy and record modes: what no stub matched goes to the upstream, and its answer is written as
/// it came, in the connection's order (the answer holds the queue like any answer that takes time).
extension StubHTTPHandler {
    func deliverUpstream(
        _ request: StubRequest, upstream: any StubServerUpstream, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext
    ) {
        state.answerStarted()
        let target = head.uri
        let logger = core.logger
        // Logs end up in CI output: the query (where tokens travel) is left out of them.
        let logged = target.firstIndex(of: "?").map { target[..<$0] + "?…" } ?? Substring(target)
        logger.info("\(head.method) \(logged) → upstream \(upstream.origin)")
        let promise = context.eventLoop.makePromise(of: UpstreamResponse.self)
        promise.completeWithTask { try await upstream.forward(request, target: target) }
        promise.futureResult.assumeIsolated().whenComplete { result in
            guard !self.state.isClosing else { return }
            switch result {
            case .success(var response):
                if upstream.rewritesLinks, let rewriter = try? OriginRewriter(from: upstream.origin, to: self.core.baseURL) {
                    response = Self.rewritten(response, with: rewriter)
                }
                self.writeUpstream(response, head: head, keepAlive: keepAlive, context: context)
            case .failure(let error):
                logger.error("\(head.method) \(logged): the upstream \(upstream.origin) did not answer: \(error)")
                let problem = StubReply.problemDocument(
                    status: 502, title: "The upstream did not answer",
                    detail: "\(head.method) \(target) was forwarded to \(upstream.origin): \(error)"
                )
                self.writeSimple(status: 502, body: problem, contentType: "application/problem+json", head: head, keepAlive: keepAlive, context: context)
            }
            self.finishAsync(context: context)
        }
    }

    /// The answer with the upstream's origin rewritten in link-bearing headers and text bodies.
    static func rewritten(_ response: UpstreamResponse, with rewriter: OriginRewriter) -> UpstreamResponse {
        var response = response
        for index in response.headers.indices
        where OriginRewriter.linkHeaders.contains(where: { $0.caseInsensitiveEquals(response.headers[index].name) }) {
            response.headers[index].value = rewriter.rewrite(response.headers[index].value)
        }
        let bytes = [UInt8](response.body)
        if OriginRewriter.isText(contentType: response.headers.value(named: "Content-Type"), isUTF8: String(validating: bytes, as: UTF8.self) != nil),
            let rewritten = rewriter.rewrite(bytes)
        {
            response.body = Data(rewritten)
        }
        return response
    }

    /// The upstream's status, headers (minus hop-by-hop ones and any that could break the message)
    /// and body, with this server's `Content-Length` and `Connection`.
    private func writeUpstream(_ response: UpstreamResponse, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        let sendsBody = head.method != .HEAD && WireRules.allowsBody(response.status)
        var buffer = context.channel.allocator.buffer(capacity: response.body.count + 512)
        buffer.writeString(WireRules.statusLine(response.status))
        var hasDate = false
        for header in response.headers
        where !UpstreamResponse.isHopByHop(header.name) && WireRules.isToken(header.name) && WireRules.isSafeValue(header.value) {
            if header.name.caseInsensitiveEquals("Date") { hasDate = true }
            buffer.writeHeader(header.name, header.value)
        }
        if let length = WireRules.contentLength(status: response.status, bodyCount: response.body.count) { buffer.writeHeader("Content-Length", String(length)) }
        if !hasDate { buffer.writeImmutableBuffer(cache.dateLine) }
        if !keepAlive {
            buffer.writeStaticString("Connection: close\r\n")
        } else if head.version.minor == 0 {
            buffer.writeStaticString("Connection: keep-alive\r\n")
        }
        if core.configuration.cors, let origin = head.headers.first(name: "origin") { CORS.writeResponseHeaders(&buffer, origin: origin, exposed: "") }
        buffer.writeStaticString("\r\n")
        if sendsBody { buffer.writeBytes(response.body) }
        write(buffer, context: context)
        if !keepAlive { closeAfterWrites(context: context) }
    }
}
