import APICheckModel
import Foundation
import NIOCore

/// A stub response in wire form, computed once per loaded set: the status line and headers as
/// bytes (the stub's headers minus the ones the server owns, one `Set-Cookie` per cookie,
/// `Server`, origins rewritten) and a static body as a `ByteBuffer` with its real length.
/// Per request the server only adds `Date`, `Connection` and CORS lines.
final class PreparedResponse: Sendable {
    enum Body: Sendable {
        /// Sent as is; already rewritten.
        case bytes(ByteBuffer)
        /// Opened when sent and streamed from the file (rewritten in memory when it is text and a
        /// rewrite applies).
        case file(StubFile)
        /// Rendered per request.
        case template(StubTemplate)
    }

    let status: Int
    /// Status line and headers, without `Content-Length`, `Date`, `Connection` and the blank line.
    let head: ByteBuffer
    /// `head` plus `Content-Length` for a `.bytes` body (so the hot path appends nothing but `Date`).
    let headWithLength: ByteBuffer
    let body: Body
    /// The stub sets its own `Date`; the server does not add one.
    let hasDate: Bool
    /// Whether file and template bodies are rewritten when sent.
    let rewritesBody: Bool
    let failure: StubFailure?
    let latency: StubLatency
    /// `Access-Control-Expose-Headers` for CORS: the stub's own header names.
    let exposedHeaders: String
    /// Headers left out because their name or value could break the message, for a warning.
    let droppedHeaders: [String]

    /// Whether the body may be sent at all (not for 1xx, 204, 304).
    var allowsBody: Bool { HTTPWire.allowsBody(status) }

    init(_ response: StubResponse, rewriters: [OriginRewriter], serverHeader: String, baseURL: String) {
        status = response.status
        failure = response.failure
        latency = response.latency
        var head = ByteBuffer()
        head.reserveCapacity(256)
        head.writeString(HTTPWire.statusLine(response.status))
        var dropped: [String] = []
        var hasDate = false
        var hasServer = false
        var exposed: [String] = []
        var contentType: String?
        for header in StubResponse.substitutingBaseURL(in: response.headersForSending, with: baseURL) {
            guard HTTPWire.isToken(header.name), HTTPWire.isSafeValue(header.value) else {
                dropped.append(header.name)
                continue
            }
            if HTTPWire.isServerOwned(header.name) { continue }
            var value = header.value
            if OriginRewriter.linkHeaders.contains(where: { $0.caseInsensitiveEquals(header.name) }) {
                for rewriter in rewriters { value = rewriter.rewrite(value) }
            }
            if header.name.caseInsensitiveEquals("Date") { hasDate = true }
            if header.name.caseInsensitiveEquals("Server") { hasServer = true }
            if header.name.caseInsensitiveEquals("Content-Type") { contentType = contentType ?? value }
            if !header.name.caseInsensitiveEquals("Set-Cookie"), !exposed.contains(where: { $0.caseInsensitiveEquals(header.name) }) {
                exposed.append(header.name)
            }
            head.writeHeader(header.name, value)
        }
        if !hasServer { head.writeHeader("Server", serverHeader) }
        self.head = head
        self.hasDate = hasDate
        self.droppedHeaders = dropped
        self.exposedHeaders = exposed.joined(separator: ", ")

        switch response.body {
        case .bytes(let data):
            var bytes = [UInt8](data)
            if !rewriters.isEmpty, OriginRewriter.isText(contentType: contentType, isUTF8: String(validating: bytes, as: UTF8.self) != nil) {
                for rewriter in rewriters { bytes = rewriter.rewrite(bytes) ?? bytes }
            }
            var buffer = ByteBuffer()
            buffer.writeBytes(bytes)
            body = .bytes(buffer)
            rewritesBody = false
            var withLength = head
            if HTTPWire.allowsContentLength(response.status) {
                withLength.writeHeader("Content-Length", String(HTTPWire.allowsBody(response.status) ? buffer.readableBytes : 0))
            }
            headWithLength = withLength
        case .file(let file):
            body = .file(file)
            rewritesBody = !rewriters.isEmpty && OriginRewriter.isText(contentType: contentType, isUTF8: false)
            headWithLength = head
        case .template(let template):
            body = .template(template)
            rewritesBody = !rewriters.isEmpty && OriginRewriter.isText(contentType: contentType, isUTF8: true)
            headWithLength = head
        }
    }
}

/// A stub set as it is served: the set and the wire form of every stub response that does not
/// change between requests (stubs with sequences are prepared when they answer).
final class ServedStubs: Sendable {
    let stubs: StubSet
    /// By position in `stubs`; `nil` for stubs with a sequence.
    let prepared: [PreparedResponse?]
    /// Stubs whose path lies under the admin prefix, which answers first.
    let shadowed: [Stub]
    let loadedAt: Date
    /// Problems found while preparing (unsafe headers left out), one sentence each.
    let warnings: [String]

    init(_ stubs: StubSet, rewriters: [OriginRewriter], serverHeader: String, baseURL: String) {
        self.stubs = stubs
        var prepared: [PreparedResponse?] = []
        prepared.reserveCapacity(stubs.count)
        var shadowed: [Stub] = []
        var warnings: [String] = []
        for stub in stubs.stubs {
            if AdminAPI.shadows(stub.request.path) {
                shadowed.append(stub)
                warnings.append("\(stub.source): warning: stub \"\(stub.name)\" is shadowed: \(AdminAPI.prefix) belongs to the admin API")
            }
            for response in stub.sequence?.responses ?? [stub.response] {
                let wire = PreparedResponse(response, rewriters: rewriters, serverHeader: serverHeader, baseURL: baseURL)
                if !wire.droppedHeaders.isEmpty {
                    warnings.append("\(stub.source): warning: stub \"\(stub.name)\": header \(wire.droppedHeaders.joined(separator: ", ")) left out (invalid name or control characters in the value)")
                }
                if stub.sequence == nil { prepared.append(wire) }
            }
            if stub.sequence != nil { prepared.append(nil) }
        }
        self.warnings = warnings
        self.prepared = prepared
        self.shadowed = shadowed
        self.loadedAt = Date()
    }
}
