@testable import APICheckTesting
import Foundation
import Logging
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Record modes (VCR's): a real API on 127.0.0.1 is "the network"; what passes through is written
/// into the stub folder, and the next run replays it with the network gone.
@Suite struct RecordModeTests {
    /// A small API on loopback: a movie whose links name the server's own origin, plain text, an
    /// echo of the credential, and an answer that differs from the hand-written stub.
    static func api() throws -> LoopbackServer {
        try LoopbackServer { request in
            switch request.target {
            case "/movies/1":
                let origin = "http://127.0.0.1:\(request.headers["host"].flatMap { $0.split(separator: ":").last } ?? "")"
                return LoopbackResponse(
                    headers: [("Content-Type", "application/json"), ("Link", "<\(origin)/movies>; rel=\"collection\"")],
                    body: Data(#"{"id":"1","name":"Spectre","_links":[{"rel":"self","href":"\#(origin)/movies/1"}]}"#.utf8))
            case "/notes":
                return LoopbackResponse(headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data("line one\nline two\n".utf8))
            case "/me":
                let token = request.headers["authorization"]?.split(separator: " ").last.map(String.init) ?? ""
                return LoopbackResponse(
                    headers: [("Content-Type", "application/json"), ("X-Echo-Token", token)],
                    body: Data(#"{"name":"ada","token":"\#(token)"}"#.utf8))
            case "/orders" where request.method == "POST":
                return LoopbackResponse(status: 201, headers: [("Content-Type", "application/json")], body: request.body)
            case "/big":
                return LoopbackResponse(headers: [("Content-Type", "text/plain")], body: Data(repeating: UInt8(ascii: "x"), count: 4096))
            default:
                return LoopbackResponse(headers: [("Content-Type", "text/plain")], body: Data("from the network".utf8))
            }
        }
    }

    /// A stub folder holding a hand-written stub for `GET /stubbed`, at the name a recording gives it.
    static func stubFolder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(
            "stubbed.json", #"{ "request": { "method": "GET", "path": "/stubbed" }, "response": { "status": 200, "bodyText": "stub" } }"#)
        return folder
    }

    static func files(in folder: TemporaryFolder) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        return (enumerator?.allObjects as? [String] ?? []).filter { !$0.hasSuffix("/") && !isFolder(folder.url.appendingPathComponent($0)) }.sorted()
    }

    static func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static func get(_ session: URLSession, _ url: String, headers: [String: String] = [:]) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: URL(string: url)!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        return (data, try #require(response as? HTTPURLResponse))
    }

    /// A recording that logs nothing (the summary's own test captures it).
    static func quiet(_ mode: RecordMode, into directory: String? = nil, options: RecordingOptions = RecordingOptions()) -> StubRecording {
        StubRecording(mode, into: directory, options: options, logger: Logger(label: "apicheck.test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    // MARK: The environment variable

    @Test func theEnvironmentVariableNamesAMode() throws {
        #expect(RecordMode.environmentVariable == "APICHECK_RECORD")
        #expect(try RecordMode.fromEnvironment(["APICHECK_RECORD": "missing"]) == .recordMissing)
        #expect(try RecordMode.fromEnvironment(["APICHECK_RECORD": "all"]) == .recordAll)
        #expect(try RecordMode.fromEnvironment(["APICHECK_RECORD": "replay"]) == .replay)
        #expect(try RecordMode.fromEnvironment(["APICHECK_RECORD": " All "]) == .recordAll)
        #expect(try RecordMode.fromEnvironment(["APICHECK_RECORD": ""]) == nil)
        #expect(try RecordMode.fromEnvironment([:]) == nil)
        let error = #expect(throws: RecordingSetupError.self) { try RecordMode.fromEnvironment(["APICHECK_RECORD": "sometimes"]) }
        #expect(error == .invalidEnvironmentValue("sometimes"))
        #expect(error?.description == "APICHECK_RECORD=sometimes is not a record mode: use replay, missing or all (or leave it unset)")
    }

    @Test func theEnvironmentWinsOverTheModeInCode() throws {
        let folder = try Self.stubFolder()
        #expect(try StubRecording.recordMissing.effectiveMode(environment: ["APICHECK_RECORD": "replay"]) == .replay)
        #expect(try StubRecording.replay.effectiveMode(environment: [:]) == .replay)
        let forced = try StubInterceptor.loading([folder.path], record: Self.quiet(.replay), environment: ["APICHECK_RECORD": "all"])
        #expect(forced.recordMode == .recordAll)
        #expect(forced.options.bypassStubs && forced.recordingDirectory?.lastPathComponent == folder.url.lastPathComponent)
        let hermetic = try StubInterceptor.loading([folder.path], record: Self.quiet(.recordAll), environment: ["APICHECK_RECORD": "replay"])
        #expect(hermetic.recordMode == .replay && hermetic.recordingSummary == nil && !hermetic.options.passthrough)
    }

    @Test func anInvalidEnvironmentValueFailsTheInterceptorInsteadOfReplaying() throws {
        let folder = try Self.stubFolder()
        let error = #expect(throws: RecordingSetupError.self) {
            try StubInterceptor.loading([folder.path], record: Self.quiet(.replay), environment: ["APICHECK_RECORD": "yes"])
        }
        #expect(error == .invalidEnvironmentValue("yes"))
    }

    @Test func aRecordModeNeedsAFolder() throws {
        let folder = try Self.stubFolder()
        let file = folder.url.appendingPathComponent("stubbed.json").path
        let error = #expect(throws: RecordingSetupError.self) {
            try StubInterceptor.loading([file], record: Self.quiet(.recordMissing), environment: [:])
        }
        #expect(error == .noFolder(.recordMissing, path: file))
        #expect(error?.description.contains("needs a folder to record into") == true)
        // A folder that does not exist yet is created: the first run records from nothing.
        let fresh = folder.url.appendingPathComponent("new/recorded").path
        let interceptor = try StubInterceptor.loading([fresh], record: Self.quiet(.recordMissing), environment: [:])
        #expect(Self.isFolder(URL(fileURLWithPath: fresh)) && interceptor.stubs.count == 0)
    }

    // MARK: Modes

    @Test func replayNeverTouchesTheNetwork() async throws {
        let server = try Self.api()
        let folder = try Self.stubFolder()
        let interceptor = try StubInterceptor.loading([folder.path], record: Self.quiet(.replay), environment: [:])
        let session = interceptor.makeSession()
        #expect(try await Self.get(session, "\(server.origin)/stubbed").0 == Data("stub".utf8))
        let error = await #expect(throws: URLError.self) { try await Self.get(session, "\(server.origin)/movies/1") }
        #expect(error?.nearMissReport != nil)
        #expect(server.requests.isEmpty, "replay sent \(server.requests.map(\.target)) to the network")
        #expect(interceptor.recordingSummary == nil)
        #expect(Self.files(in: folder) == ["stubbed.json"])
    }

    @Test func recordMissingRecordsOnlyWhatNoStubAnswersAndReplaysItByteForByte() async throws {
        let server = try Self.api()
        let folder = try Self.stubFolder()
        let recording = try StubInterceptor.loading([folder.path], record: Self.quiet(.recordMissing), environment: [:])
        let session = recording.makeSession()
        #expect(try await Self.get(session, "\(server.origin)/stubbed").0 == Data("stub".utf8))
        let (movie, movieResponse) = try await Self.get(session, "\(server.origin)/movies/1")
        let (notes, notesResponse) = try await Self.get(session, "\(server.origin)/notes")
        #expect(String(decoding: movie, as: UTF8.self).contains("\(server.origin)/movies/1"))
        #expect(server.requests.map(\.target) == ["/movies/1", "/notes"], "the stubbed request stays in-process")
        let summary = try #require(recording.recordingSummary)
        #expect(summary.written.sorted() == ["movies/1.json", "notes.json"])
        #expect(Self.files(in: folder).contains("movies/1.json") && Self.files(in: folder).contains("stubbed.json"))
        // The origin is a template: the recording serves on any port, and here on the same one.
        let template = try #require(Self.files(in: folder).first { $0.hasPrefix("movies/1") && $0.hasSuffix(".mustache") })
        let templateText = try String(contentsOf: folder.url.appendingPathComponent(template), encoding: .utf8)
        #expect(templateText.contains("{{baseURL}}/movies/1") && !templateText.contains("127.0.0.1"), "\(templateText)")
        #expect(recording.journal.all.map { if case .passedThrough = $0.outcome { true } else { false } } == [false, true, true])
        session.finishTasksAndInvalidate()

        server.stop()
        let replay = try StubInterceptor.loading([folder.path], record: Self.quiet(.replay), environment: [:])
        let offline = replay.makeSession()
        let (replayedMovie, replayedMovieResponse) = try await Self.get(offline, "\(server.origin)/movies/1")
        let (replayedNotes, replayedNotesResponse) = try await Self.get(offline, "\(server.origin)/notes")
        #expect(replayedMovie == movie)
        #expect(replayedNotes == notes)
        #expect(replayedMovieResponse.statusCode == movieResponse.statusCode)
        #expect(replayedMovieResponse.value(forHTTPHeaderField: "Content-Type") == movieResponse.value(forHTTPHeaderField: "Content-Type"))
        #expect(replayedMovieResponse.value(forHTTPHeaderField: "Link") == movieResponse.value(forHTTPHeaderField: "Link"))
        #expect(replayedNotesResponse.value(forHTTPHeaderField: "Content-Type") == notesResponse.value(forHTTPHeaderField: "Content-Type"))
        #expect(replay.journal.unmatched.isEmpty)
    }

    @Test func recordAllSendsEvenMatchedRequestsToTheNetworkAndReplacesTheirFiles() async throws {
        let server = try Self.api()
        let folder = try Self.stubFolder()
        let recording = try StubInterceptor.loading([folder.path], record: Self.quiet(.recordAll), environment: [:])
        let session = recording.makeSession()
        #expect(try await Self.get(session, "\(server.origin)/stubbed").0 == Data("from the network".utf8))
        #expect(server.requests.map(\.target) == ["/stubbed"])
        #expect(recording.recordingSummary?.written == ["stubbed.json"])
        #expect(recording.journal.all.first.map { if case .passedThrough = $0.outcome { true } else { false } } == true)
        session.finishTasksAndInvalidate()

        server.stop()
        let replay = try StubInterceptor.loading([folder.path], record: Self.quiet(.replay), environment: [:])
        #expect(try await Self.get(replay.makeSession(), "\(server.origin)/stubbed").0 == Data("from the network".utf8))
    }

    @Test func recordMissingLeavesAnExistingFileAloneUnlessToldToOverwrite() async throws {
        let server = try Self.api()
        let folder = try Self.stubFolder()
        // The stub answers only with a header, so the request passes through, to the stub's file name.
        try folder.write(
            "stubbed.json",
            #"{ "request": { "method": "GET", "path": "/stubbed", "headers": { "X-Mode": "test" } }, "response": { "status": 200, "bodyText": "stub" } }"#)
        let recording = try StubInterceptor.loading([folder.path], record: Self.quiet(.recordMissing), environment: [:])
        #expect(try await Self.get(recording.makeSession(), "\(server.origin)/stubbed").0 == Data("from the network".utf8))
        #expect(recording.recordingSummary?.skippedExisting == ["stubbed.json"])
        #expect(try String(contentsOf: folder.url.appendingPathComponent("stubbed.json"), encoding: .utf8).contains("X-Mode"))
    }

    @Test func theCredentialIsNeitherWrittenNorLostOnTheWay() async throws {
        let server = try Self.api()
        let folder = try TemporaryFolder()
        let secret = "s3cret-token-42"
        let recording = try StubInterceptor.loading([folder.path], record: Self.quiet(.recordMissing), environment: [:])
        let (body, response) = try await Self.get(recording.makeSession(), "\(server.origin)/me", headers: ["Authorization": "Bearer \(secret)"])
        #expect(String(decoding: body, as: UTF8.self).contains(secret), "the client gets the real answer")
        #expect(response.value(forHTTPHeaderField: "X-Echo-Token") == secret)
        #expect(server.requests.first?.headers["authorization"] == "Bearer \(secret)", "passed through as sent")
        let written = Self.files(in: folder)
        #expect(!written.isEmpty)
        for file in written {
            let text = try String(contentsOf: folder.url.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains(secret), "\(file) holds the credential:\n\(text)")
        }
        #expect(recording.recordingSummary?.redacted.isEmpty == false)
    }

    @Test func aRequestBodyReachesTheNetworkAndTheStubIsRecorded() async throws {
        let server = try Self.api()
        let folder = try TemporaryFolder()
        let recording = try StubInterceptor.loading([folder.path], record: Self.quiet(.recordMissing), environment: [:])
        var request = URLRequest(url: URL(string: "\(server.origin)/orders")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"movieId":"1"}"#.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await recording.makeSession().data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 201 && data == Data(#"{"movieId":"1"}"#.utf8))
        #expect(server.requests.first?.body == Data(#"{"movieId":"1"}"#.utf8))
        #expect(recording.recordingSummary?.written == ["orders.post.json"])
    }

    @Test func anAnswerOverTheBodyLimitReachesTheClientButIsNotRecorded() async throws {
        let server = try Self.api()
        let folder = try TemporaryFolder()
        let record = Self.quiet(.recordMissing, options: RecordingOptions(maximumBodyBytes: 1024))
        let recording = try StubInterceptor.loading([folder.path], record: record, environment: [:])
        #expect(try await Self.get(recording.makeSession(), "\(server.origin)/big").0.count == 4096)
        let summary = try #require(recording.recordingSummary)
        #expect(summary.written.isEmpty && summary.skipped.count == 1)
        #expect(summary.skipped.first?.contains("over the recording limit of 1024 bytes") == true)
        #expect(Self.files(in: folder).isEmpty)
    }

    @Test func aFailedPassthroughIsNotRecorded() async throws {
        // Port 1 on loopback: nothing listens, and no parallel test's server can take it (a stopped
        // server's port can be handed to the next test that binds port 0).
        let origin = "http://127.0.0.1:1"
        let folder = try TemporaryFolder()
        let recording = try StubInterceptor.loading([folder.path], record: Self.quiet(.recordMissing), environment: [:])
        await #expect(throws: URLError.self) { try await Self.get(recording.makeSession(), "\(origin)/movies/1") }
        let summary = try #require(recording.recordingSummary)
        #expect(summary.written.isEmpty && summary.skipped.isEmpty && summary.failed.isEmpty)
        #expect(Self.files(in: folder).isEmpty)
    }

    // MARK: Helpers

    @Test(.enabled(if: ProcessInfo.processInfo.environment["APICHECK_RECORD"] == nil, "APICHECK_RECORD would choose the mode"))
    func theTraitRecordsForItsTest() async throws {
        let server = try Self.api()
        let folder = try TemporaryFolder()
        let trait: StubsTrait = .stubs(folder.path, record: Self.quiet(.recordMissing))
        try await trait.provideScope(for: try #require(Test.current), testCase: nil) {
            let stubs = Stubs.current
            #expect(stubs.interceptor.recordMode == .recordMissing)
            let (notes, _) = try await Self.get(stubs.session, "\(server.origin)/notes")
            #expect(notes == Data("line one\nline two\n".utf8))
            #expect(stubs.recordingSummary?.written == ["notes.json"])
        }
        #expect(Self.files(in: folder) == ["notes.json"])
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["APICHECK_RECORD"] == nil, "APICHECK_RECORD would choose the mode"))
    func theScopedHelperRecordsIntoANamedFolderAndLoadsItNextTime() async throws {
        let server = try Self.api()
        let folder = try Self.stubFolder()
        let recorded = folder.url.appendingPathComponent("recorded").path
        let lines = CapturedLog()
        let record = StubRecording(.recordMissing, into: recorded, logger: Logger(label: "apicheck.test", factory: { _ in lines }))
        try await withStubs(folder.path, record: record) { stubs in
            let (notes, _) = try await Self.get(stubs.session, "\(server.origin)/notes")
            #expect(notes == Data("line one\nline two\n".utf8))
            #expect(stubs.interceptor.recordingDirectory?.path == URL(fileURLWithPath: recorded).resolvingSymlinksInPath().path)
        }
        #expect(Self.files(in: folder).contains("recorded/notes.json"))
        // The test author sees what was written when the block ends.
        #expect(lines.messages.contains { $0.hasPrefix("notice: recorded (recordMissing) into ") && $0.hasSuffix("recorded: 1 stub file written") })
        server.stop()
        // Replay finds it inside the stub folder (loaded once, not a second time for `into:`).
        try await withStubs(folder.path, record: Self.quiet(.replay, into: recorded)) { stubs in
            let (notes, _) = try await Self.get(stubs.session, "\(server.origin)/notes")
            #expect(notes == Data("line one\nline two\n".utf8))
            #expect(stubs.interceptor.stubs.count == 2)
        }
        // A named folder elsewhere is loaded too.
        let elsewhere = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: recorded + "/notes.json", toPath: elsewhere.path + "/notes.json")
        let other = try Self.stubFolder()
        try await withStubs(other.path, record: Self.quiet(.replay, into: elsewhere.path)) { stubs in
            let (notes, _) = try await Self.get(stubs.session, "\(server.origin)/notes")
            #expect(notes == Data("line one\nline two\n".utf8))
            #expect(stubs.interceptor.stubs.count == 2)
        }
    }
}

/// A log handler that keeps `level: message` lines.
struct CapturedLog: LogHandler {
    private final class Lines: Sendable {
        let value = Mutex<[String]>([])
    }

    private let lines = Lines()
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var messages: [String] { lines.value.withLock { $0 } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.value.withLock { $0.append("\(event.level): \(event.message)") }
    }
}
