import NIOCore
import NIOHTTP1
import Testing

@testable import APICheckServer

@Suite struct CORSTests {
    private func text(_ write: (inout ByteBuffer) -> Void) -> String {
        var buffer = ByteBuffer()
        write(&buffer)
        return String(buffer: buffer)
    }

    @Test func aPreflightIsAnOptionsRequestWithOriginAndRequestMethod() {
        var head = HTTPRequestHead(version: .http1_1, method: .OPTIONS, uri: "/cart")
        #expect(!CORS.isPreflight(head))
        head.headers.add(name: "Origin", value: "http://app.test")
        #expect(!CORS.isPreflight(head))
        head.headers.add(name: "Access-Control-Request-Method", value: "PUT")
        #expect(CORS.isPreflight(head))
        head.method = .GET
        #expect(!CORS.isPreflight(head))
    }

    @Test func responsesReflectTheOriginWithCredentialsAndExposeTheStubsHeaders() {
        #expect(text { CORS.writeResponseHeaders(&$0, origin: "http://app.test", exposed: "X-Trace, ETag") } == """
            Access-Control-Allow-Origin: http://app.test\r
            Access-Control-Allow-Credentials: true\r
            Vary: Origin\r
            Access-Control-Expose-Headers: X-Trace, ETag\r

            """)
    }

    @Test func preflightsAllowEveryStubMethodAndTheRequestedHeaders() {
        let headers = text { CORS.writePreflightHeaders(&$0, origin: "http://app.test", requestedHeaders: "Authorization, Content-Type") }
        #expect(headers.contains("Access-Control-Allow-Methods: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n"))
        #expect(headers.contains("Access-Control-Allow-Headers: Authorization, Content-Type\r\n"))
        #expect(headers.contains("Access-Control-Max-Age: 600\r\n"))
    }

    @Test func anOriginThatCouldEndAHeaderLineIsNeverReflected() {
        #expect(text { CORS.writeResponseHeaders(&$0, origin: "http://a.test\r\nSet-Cookie: x=1", exposed: "") }.isEmpty)
        let preflight = text { CORS.writePreflightHeaders(&$0, origin: "http://a.test", requestedHeaders: "X\r\nSet-Cookie: y=2") }
        #expect(!preflight.contains("Set-Cookie"))
    }
}
