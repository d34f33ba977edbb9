import APICheckModel
import APICheckResponder
import Foundation
import Testing

/// The served set: heads computed once per stub response (and interned), the responder's
/// overlay of stubs added at run time.
@Suite struct ServedStubsTests {
    static let origin = "http://127.0.0.1:8080"

    @Test func stubsWithTheSameHeadShareOne() {
        let headers = [HTTPHeader(name: "Content-Type", value: "application/json")]
        let served = ServedStubs(
            StubSet((0..<100).map { stub("s\($0)", "GET", "/items/\($0)", headers: headers, body: "\($0)") }), options: ServingOptions(origin: Self.origin))
        let first = served.head(ofSlot: 0, stub: 0, origin: Self.origin)
        #expect((1..<100).allSatisfy { served.head(ofSlot: $0, stub: $0, origin: Self.origin) === first })
        #expect(first.headers == headers)
        #expect(String(decoding: first.wire, as: UTF8.self) == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
    }

    @Test func aHeadThatNamesTheOriginIsMadeForEachOriginWhenNoneIsFixed() {
        let stubs = StubSet([stub("moved", "GET", "/old", status: 301, headers: [HTTPHeader(name: "Location", value: "{{baseURL}}/new")])])
        let inProcess = ServedStubs(stubs)
        #expect(inProcess.head(ofSlot: 0, stub: 0, origin: "http://a.example").headers == [HTTPHeader(name: "Location", value: "http://a.example/new")])
        #expect(inProcess.head(ofSlot: 0, stub: 0, origin: "http://b.example").headers == [HTTPHeader(name: "Location", value: "http://b.example/new")])
        let server = ServedStubs(stubs, options: ServingOptions(origin: Self.origin, serverName: "apicheck"))
        let head = server.head(ofSlot: 0, stub: 0, origin: Self.origin)
        #expect(server.head(ofSlot: 0, stub: 0, origin: Self.origin) === head)
        #expect(head.headers == [HTTPHeader(name: "Location", value: "\(Self.origin)/new")])
        // A server names itself in the bytes it writes, not in the stub's headers.
        #expect(String(decoding: head.wire, as: UTF8.self) == "HTTP/1.1 301 Moved Permanently\r\nLocation: \(Self.origin)/new\r\nServer: apicheck\r\n")
    }

    @Test func headersThatCouldBreakTheMessageAreLeftOutWithAWarning() {
        let headers = [
            HTTPHeader(name: "X-Ok", value: "fine"), HTTPHeader(name: "X-Evil", value: "a\r\nSet-Cookie: injected=1"),
            HTTPHeader(name: "Bad Name", value: "x"), HTTPHeader(name: "Transfer-Encoding", value: "chunked"), HTTPHeader(name: "Content-Length", value: "9"),
        ]
        let served = ServedStubs(StubSet([stub("split", "GET", "/split", headers: headers)]))
        #expect(served.head(ofSlot: 0, stub: 0, origin: Self.origin).headers == [HTTPHeader(name: "X-Ok", value: "fine")])
        #expect(served.warnings.count == 1)
        #expect(served.warnings.first?.contains("header X-Evil, Bad Name left out") == true, "\(served.warnings)")
    }

    @Test func stubsAddedOverTheServedSetAnswerFirstAndStayAcrossInstalls() {
        let responder = StubResponder(stubs: StubSet([stub("file", "GET", "/things/{id}", body: "from the files")]))
        func body(_ path: String) -> String? {
            let reply = responder.reply(to: StubRequest(method: "GET", path: path), at: .url(URL(string: "http://x.example\(path)")!))
            guard case .bytes(let data) = reply.body, reply.stubResponse != nil else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
        #expect(body("/things/1") == "from the files")
        responder.addOverlay([stub("added", "GET", "/things/1", body: "added at run time")])
        #expect(body("/things/1") == "added at run time")
        #expect(body("/things/2") == "from the files")
        responder.replaceStubs(StubSet([stub("file", "GET", "/things/{id}", body: "reloaded")]))
        #expect(body("/things/1") == "added at run time")
        #expect(body("/things/2") == "reloaded")
        #expect(responder.overlayStubs.map(\.name) == ["added"])
        responder.removeOverlay()
        #expect(body("/things/1") == "reloaded")
    }

    @Test func aSequenceAnswersFromItsSlotsInOrder() {
        let sequence = StubSequence(
            responses: [StubResponse(status: 200, body: .bytes(Data("one".utf8))), StubResponse(status: 201, body: .bytes(Data("two".utf8)))], afterLast: .fail)
        let responder = StubResponder(stubs: StubSet([stub("counter", "GET", "/counter", sequence: sequence)]))
        let statuses = (0..<3).map { _ in responder.reply(to: StubRequest(method: "GET", path: "/counter"), at: .url(URL(string: "http://x.example/counter")!)).status }
        #expect(statuses == [200, 201, 404])
    }
}
