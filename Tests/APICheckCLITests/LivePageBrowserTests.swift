import Foundation
import Testing

/// The stub server's live page in headless Chromium: what a client developer sees at
/// `/__apicheck/` while an app talks to the server.
@Suite(.enabled(if: Chromium.isAvailable, "needs chromium (apt-get install -y chromium)"), .serialized)
struct LivePageBrowserTests {
    typealias ServeProcess = ServeCommandTests.ServeProcess

    /// A request to the server, over a raw socket (method, path, optional JSON body).
    @discardableResult
    private func send(_ server: ServeProcess, _ method: String, _ path: String, body: String? = nil, headers: String = "") throws -> String {
        let bodyPart = body.map { "Content-Type: application/json\r\nContent-Length: \($0.utf8.count)\r\n\r\n\($0)" } ?? "\r\n"
        return try RawHTTP.exchange(port: server.port, "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\(headers)Connection: close\r\n\(bodyPart)")
    }

    @Test func thePageShowsTheStubsTheJournalWithNearMissesAndTheLastReload() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"name": "movie", "request": {"path": "/movies/{id}"}, "response": {"status": 200, "bodyText": "{}"}}"#
            .write(to: folder.appendingPathComponent("movie.json"), atomically: true, encoding: .utf8)
        try #"{"name": "home", "request": {"path": "/"}, "response": {"status": 200, "bodyText": "home"}}"#
            .write(to: folder.appendingPathComponent("home.json"), atomically: true, encoding: .utf8)
        let server = try ServeProcess([folder.path, "--port", "0"])
        try server.waitUntilListening()
        try send(server, "GET", "/")
        try send(server, "GET", "/movies/7")
        try send(server, "GET", "/moovies/7")
        let added = try send(server, "POST", "/__apicheck/stubs", body: #"{"name": "gone", "request": {"path": "/movies/9"}, "response": {"status": 410}}"#)
        #expect(added.hasPrefix("HTTP/1.1 201"))
        // A broken file: the reload is refused, located, and the page says so.
        try "{\"request\": {\"path\": \"/x\"},\n \"response\": {\"status\": \"oops\"}}".write(to: folder.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        #expect(try send(server, "POST", "/__apicheck/reload", body: "").hasPrefix("HTTP/1.1 422"))

        let dom = try Chromium.dom(of: server.baseURL + "/__apicheck/")
        #expect(dom.contains("2 stubs from files + 1 added at run time · 3 requests in the journal"), "\(dom.prefix(3000))")
        #expect(dom.contains("<td>/moovies/7</td>") && dom.contains("no stub: near misses"))
        #expect(dom.contains("<td>/movies/7</td>") && dom.contains("<td>movie</td>"))
        #expect(dom.contains(#"<td class="badge runtime">runtime</td>"#) && dom.contains(">Remove</button>"))
        #expect(dom.contains("(3, 1 added at run time)"))
        #expect(dom.contains("Rejected, the last good set still serves"))
        #expect(dom.contains("broken.json:2:") && dom.contains(": error: "))
        #expect(dom.contains(#"id="token-form" hidden="""#))
        try Chromium.screenshot(of: server.baseURL + "/__apicheck/", to: Chromium.screenshotFolder.appendingPathComponent("live-page.png"))
        // The page's own calls were not journaled; the stubs' were.
        #expect(try send(server, "GET", "/__apicheck/health").contains(#""journalEntries": 3"#))
    }

    @Test func withATokenThePageAsksForItAndShowsNothingWithout() throws {
        let server = try ServeProcess(["stubs/acmeflix", "--port", "0", "--admin-token", "s3cret"])
        try server.waitUntilListening()
        let dom = try Chromium.dom(of: server.baseURL + "/__apicheck/")
        #expect(dom.contains(#"<div id="token-form">"#), "the token form stays hidden")
        #expect(dom.contains("This server has an admin token (--admin-token): enter it"))
        #expect(!dom.contains(#"<td class="badge file">"#))
        // Nothing is claimed before the token is given, and what would be refused is off.
        #expect(!dom.contains(#"<p class="hint">No use case"#) && !dom.contains(#"<p class="hint">No reload yet"#))
        #expect(dom.contains(#"<button id="reset-button" type="button" disabled="">"#))
    }
}

extension RawHTTP {
    /// One HTTP/1.1 exchange on a fresh connection (`request` whole, with `Connection: close`): the
    /// response as text.
    static func exchange(port: Int, _ request: String) throws -> String {
        let socket = try open(port: port, timeout: 10)
        defer { close(socket) }
        try sendAll(socket, request)
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            response += buffer[0..<count]
        }
        return String(decoding: response, as: UTF8.self)
    }
}
