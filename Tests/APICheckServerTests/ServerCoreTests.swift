import APICheckModel
import Testing

@testable import APICheckServer

@Suite struct ServerCoreTests {
    @Test func hostHeadersSplitIntoNameAndPort() {
        #expect(ServerCore.splitHost("127.0.0.1:8080") == ("127.0.0.1", 8080))
        #expect(ServerCore.splitHost("Example.COM:81") == ("example.com", 81))
        #expect(ServerCore.splitHost("example.com") == ("example.com", nil))
        #expect(ServerCore.splitHost("[::1]:3000") == ("::1", 3000))
        #expect(ServerCore.splitHost("[::1]") == ("::1", nil))
        #expect(ServerCore.splitHost("host:") == ("host", nil))
        #expect(ServerCore.splitHost("host:99x") == ("host", nil))
    }

    @Test func requestTargetsAsTheServerReadsThem() {
        let decoded = StubRequest(method: "get", target: "/a%20b/c?x=1%202&y#frag?z")
        #expect(decoded.method == "GET")
        #expect(decoded.path == "/a b/c")
        #expect(decoded.query == [StubRequest.QueryItem(name: "x", value: "1 2"), StubRequest.QueryItem(name: "y", value: nil)])
        let fragment = StubRequest(method: "GET", target: "/p#f?x=1")
        #expect(fragment.path == "/p" && fragment.query.isEmpty)
        let empty = StubRequest(method: "GET", target: "/p?")
        #expect(empty.path == "/p" && empty.query.isEmpty)
        let percentInQueryOnly = StubRequest(method: "GET", target: "/100%25?q=%41")
        #expect(percentInQueryOnly.path == "/100%")
        #expect(percentInQueryOnly.query.first?.value == "A")
        let plain = StubRequest(method: "GET", target: "/collection-501/42")
        #expect(plain.path == "/collection-501/42" && plain.query.isEmpty)
        #expect(StubRequest(method: "GET", target: "").path == "/")
    }
}
