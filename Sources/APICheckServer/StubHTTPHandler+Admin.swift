import APICheckJSON
import APICheckModel
import APICheckResponder
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// Requests the server answers itself: CORS preflights (with `--cors`; ``CORS`` writes the
/// headers) and the admin API under `/__apicheck/` (``AdminAPI`` decides; this writes). They are
/// answered here, in the connection's one queue, and not by handlers of their own in the pipeline:
/// a pipelined preflight or admin request must be answered after the stub responses queued before
/// it, and a separate handler would answer it out of order (or need the same queue).
extension StubHTTPHandler {
    /// Answers a CORS preflight (``CORS``) in its turn among the connection's requests.
    func respondPreflight(_ head: HTTPRequestHead, origin: String, keepAlive: Bool, context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: 512)
        buffer.writeString(WireRules.statusLine(204))
        buffer.writeHeader("Server", ServerCore.serverHeader)
        buffer.writeImmutableBuffer(cache.dateLine)
        CORS.writePreflightHeaders(&buffer, origin: origin, requestedHeaders: head.headers.first(name: "access-control-request-headers"))
        if !keepAlive { buffer.writeStaticString("Connection: close\r\n") }
        buffer.writeStaticString("\r\n")
        write(buffer, context: context)
        if !keepAlive { closeAfterWrites(context: context) }
    }

    func respondAdmin(_ incoming: Incoming, keepAlive: Bool, context: ChannelHandlerContext) {
        let head = incoming.head
        let reply = AdminAPI.handle(method: head.method, uri: head.uri, headers: head.headers, body: incoming.body, peerIsLoopback: peerIsLoopback, core: core)
        switch reply {
        case .now(let status, let body, let headers):
            let type = status >= 400 ? "application/problem+json" : "application/json"
            writeSimple(status: status, body: Data(JSONWriter(style: .pretty).bytes(body)), contentType: type, head: head, keepAlive: keepAlive, extraHeaders: headers, context: context)
        case .page:
            writeSimple(
                status: 200, body: Data(LivePage.html), contentType: "text/html; charset=utf-8", head: head, keepAlive: keepAlive,
                extraHeaders: [
                    ("Content-Security-Policy", LivePage.contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
                ], context: context)
        case .reload:
            state.answerStarted()
            let available = core.source != nil
            core.reload(trigger: "admin API", on: context.eventLoop).assumeIsolated().whenComplete { result in
                let reply: AdminAPI.Reply
                switch result {
                case .success(let outcome): reply = AdminAPI.reloadReply(outcome, available: available)
                case .failure(let error): reply = .now(status: 503, body: StubReply.problem(status: 503, title: "Reload unavailable", detail: "\(error)"), headers: [])
                }
                if case .now(let status, let body, let headers) = reply, !self.state.isClosing {
                    let type = status >= 400 && status != 422 ? "application/problem+json" : "application/json"
                    self.writeSimple(status: status, body: Data(JSONWriter(style: .pretty).bytes(body)), contentType: type, head: head, keepAlive: keepAlive, extraHeaders: headers, context: context)
                }
                self.finishAsync(context: context)
            }
        }
    }
}
