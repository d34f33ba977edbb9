import APICheckModel
import APICheckStubFiles
import Foundation
import Testing

@testable import APICheckServer

/// Hot reload (`--watch`): changes apply without a restart, a broken file keeps the last good set.
@Suite struct StubFileWatcherTests {
    private static func json(_ path: String, _ body: String, latency: Double = 0) -> String {
        #"{"request": {"path": "\#(path)"}, "response": {"status": 200, "bodyText": "\#(body)"}"#
            + (latency > 0 ? #", "latency": {"request": \#(latency)}"# : "") + "}"
    }

    /// Polls `path` until it answers `expected` (or the deadline passes); returns what it saw last.
    /// The deadline only bounds a failure: a loaded CI machine has stalled a whole test run for a minute.
    private func eventually(_ port: Int, _ path: String, _ expected: String, within: Duration = .seconds(30)) async throws -> String {
        let deadline = ContinuousClock.now + within
        var last = ""
        while ContinuousClock.now < deadline {
            let response = try await blockingIO { try rawGET(port, path) }
            last = response.status == 200 ? response.text : "status \(response.status)"
            if last == expected { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        return last
    }

    @Test func changesApplyAndABrokenFileKeepsTheLastGoodSet() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("a.json", Self.json("/a", "one"))
        try folder.write("nested/b.json", Self.json("/b", "bee"))
        let capture = LogCapture()
        let configuration = testConfiguration { $0.watchInterval = .milliseconds(100) }
        try await withStubServer(loading: [folder.path], configuration: configuration, logger: capture.logger) { server in
            let port = server.port
            #expect(try await eventually(port, "/a", "one") == "one")

            // An edit applies.
            try folder.write("a.json", Self.json("/a", "two"))
            #expect(try await eventually(port, "/a", "two") == "two")
            // A new file applies.
            try folder.write("nested/c.json", Self.json("/c", "sea"))
            #expect(try await eventually(port, "/c", "sea") == "sea")

            // A broken edit: reported with path:line:col, nothing lost.
            try folder.write("a.json", "{\"request\": {\"path\": \"/a\"},\n  \"response\": {\"status\": 200, \"bodyText\": \"three\"")
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline, !capture.messages.contains(where: { $0.contains("\(folder.path)/a.json:") && $0.contains(": error: ") }) {
                try await Task.sleep(for: .milliseconds(50))
            }
            let report = capture.messages.first { $0.contains("\(folder.path)/a.json:") && $0.contains(": error: ") }
            #expect(report != nil, "\(capture.messages)")
            #expect(capture.messages.contains { $0.contains("still serving the last good set of 3 stubs") })
            #expect(try rawGETText(port, "/a") == "two")
            #expect(try rawGETText(port, "/b") == "bee")
            #expect(try rawGETText(port, "/c") == "sea")

            // Fixed: applies again.
            try folder.write("a.json", Self.json("/a", "four"))
            #expect(try await eventually(port, "/a", "four") == "four")
            // A deleted file is gone after the reload.
            try FileManager.default.removeItem(at: folder.url.appendingPathComponent("nested/c.json"))
            #expect(try await eventually(port, "/c", "status 404") == "status 404")
        }
    }

    @Test func requestsInFlightFinishOnTheSetTheyStartedWith() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("slow.json", Self.json("/slow", "old", latency: 0.6))
        try await withStubServer(loading: [folder.path], configuration: testConfiguration()) { server in
            let port = server.port
            async let inFlight = blockingIO { try rawGET(port, "/slow") }
            try await Task.sleep(for: .milliseconds(150))
            try folder.write("slow.json", Self.json("/slow", "new"))
            let outcome = await server.reload()
            #expect(outcome.accepted)
            #expect(try await inFlight.text == "old")
            #expect(try rawGETText(port, "/slow") == "new")
        }
    }

    @Test func theFingerprintSeesStubFilesOnly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("a.json", "{}")
        let before = StubFileWatcher.fingerprint([folder.path], maximumEntries: 1000)
        try folder.write("poster.jpg", Data([1, 2, 3]))
        try folder.write(".a.json.swp", "x")
        #expect(!StubFileWatcher.fingerprint([folder.path], maximumEntries: 1000).differs(from: before))
        try folder.write("a.json", "{ }")
        #expect(StubFileWatcher.fingerprint([folder.path], maximumEntries: 1000).differs(from: before))
    }

    /// Two same-size writes within one tick of the file clock have the same size, inode and
    /// modification time; the content of a recently modified file tells them apart.
    @Test func aSameSizeEditWithinOneClockTickIsSeen() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("a.json", Self.json("/a", "one"))
        var info = stat()
        #expect(stat(file.path, &info) == 0)
        let before = StubFileWatcher.fingerprint([folder.path], maximumEntries: 1000)
        try folder.write("a.json", Self.json("/a", "two"))
        // Give it the first write's modification time back, as a coarse clock would.
        #if canImport(Darwin)
        var times = [info.st_atimespec, info.st_mtimespec]
        #else
        var times = [info.st_atim, info.st_mtim]
        #endif
        #expect(utimensat(AT_FDCWD, file.path, &times, 0) == 0)
        let after = StubFileWatcher.fingerprint([folder.path], maximumEntries: 1000)
        #expect(after.metadata == before.metadata)
        #expect(after.differs(from: before))
    }
}

/// The body of `GET path` as text.
func rawGETText(_ port: Int, _ path: String) throws -> String {
    try rawGET(port, path).text
}
