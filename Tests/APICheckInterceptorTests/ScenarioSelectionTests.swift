import APICheckTesting
import Foundation
import Logging
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every file of a folder is a scenario of the folder's use case, and selecting one takes the
/// others out. In a flat folder that silences unrelated files: the selection says so at its line.
@Suite struct ScenarioSelectionTests {
    private func write(_ folder: TemporaryFolder, _ file: String, _ method: String, _ path: String, _ status: Int) throws {
        try folder.write(file, #"{"request": {"method": "\#(method)", "path": "\#(path)"}, "response": {"status": \#(status)}}"#)
    }

    private static func status(_ session: URLSession, _ method: String, _ path: String) async throws -> Int {
        var request = URLRequest(url: URL(string: "http://localhost\(path)")!)
        request.httpMethod = method
        return (try await session.data(for: request).1 as? HTTPURLResponse)?.statusCode ?? 0
    }

    @Test func alternativesInAFolderOfTheirOwnSwitchWithoutSilencingOthers() async throws {
        let folder = try TemporaryFolder()
        try write(folder, "items.json", "GET", "/items", 200)
        try write(folder, "login/ok.json", "POST", "/login", 200)
        try write(folder, "login/locked.json", "POST", "/login", 423)
        try await withStubs(folder.path) { stubs in
            stubs.select("ok", for: "login")
            let ok = try await Self.status(stubs.session, "POST", "/login")
            stubs.select("locked", for: "login")
            let locked = try await Self.status(stubs.session, "POST", "/login")
            let items = try await Self.status(stubs.session, "GET", "/items")
            #expect([ok, locked, items] == [Int]([200, 423, 200]))
        }
    }

    @Test func inAFlatFolderTheSelectionWarnsWhatItTakesOut() async throws {
        let folder = try TemporaryFolder()
        try write(folder, "items.json", "GET", "/items", 200)
        try write(folder, "login-ok.json", "POST", "/login", 200)
        try write(folder, "login-locked.json", "POST", "/login", 423)
        let log = CapturedLog()
        let path = folder.path
        // Detached: no test framework, so the warning goes to the logger and failures are thrown.
        let outcome = await Task.detached { () -> (login: Int, items: String, thrown: String) in
            var login = 0
            var items = "answered"
            do {
                try await withStubs(path, unmatched: .allow, logger: Logger(label: "test", factory: { _ in log })) { stubs in
                    stubs.select("login-locked", for: ".")
                    login = try await Self.status(stubs.session, "POST", "/login")
                    do { _ = try await Self.status(stubs.session, "GET", "/items") } catch { items = "\(error)" }
                    stubs.select("login-lockd", for: ".")
                }
                return (login, items, "returned")
            } catch {
                return (login, items, "\(error)")
            }
        }.value
        #expect(outcome.login == 423)
        #expect(outcome.items.contains("scenario: this is items of ., but login-locked is active"), "items.json is a scenario of \".\" too: \(outcome.items)")
        #expect(log.messages.contains { $0.contains(#"select("login-locked", for: ".") also takes out 1 scenario answering requests "login-locked" does not: items (GET /items)"#) }, "\(log.messages)")
        #expect(outcome.thrown.contains(#"use case "." has no scenario "login-lockd""#), "\(outcome.thrown)")
        #expect(outcome.thrown.contains("its scenarios: items, login-locked, login-ok"))
    }
}
