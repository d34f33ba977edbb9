import APICheckJSON
import APICheckModel
import APICheckTemplates
import Foundation
import Logging
import Synchronization

/// Writes what a real API answered as stub files that `apicheck lint` accepts and that serve the
/// same bytes again, on any port and in-process.
///
/// - One stub file per resource (method + path + query, plus `--match-header` values), named
///   after the path (``StubFileNaming``); a repeated request with the same answer writes nothing,
///   one with a different answer becomes the next response of a sequence only with
///   ``RecordingOptions/sequences`` (otherwise the first answer stays, and the summary counts it).
/// - Bodies: JSON whose bytes are compact is written inline (pretty-printed in the file, sent
///   compactly as received); a body naming the upstream's origin becomes a template with
///   `{{baseURL}}`, checked by rendering it before it is kept; other text inline up to 4 KiB,
///   binary and larger bodies as files beside the stub. Link-bearing headers name `{{baseURL}}` too.
/// - Secrets are replaced before anything is written (``RecordingRedactor``).
/// - Files are written atomically (a temporary file renamed), bodies before the stub that names
///   them, never outside the folder, and an existing file is replaced only with
///   ``RecordingOptions/overwrite``.
///
/// Thread-safe: proxies and crawls record from many tasks.
public final class StubRecorder: Sendable {
    public let directory: URL
    let options: RecordingOptions
    let logger: Logger
    private let state: Mutex<State>

    struct State: Sendable {
        var redactor: RecordingRedactor
        /// Stubs written in this recording, by file path relative to the folder.
        var stubs: [String: RecordedStub] = [:]
        var summary = RecordingSummary()
        /// Files this recording may not touch (they existed and overwriting was not asked for).
        var refused: Set<String> = []
        /// Per stub file, the raw answers (status, headers, body) it already holds, hashed.
        var answers: [String: Set<Int>] = [:]
    }

    /// How many raw answers per stub file the fast path remembers.
    static let rememberedAnswersPerStub = 16

    /// A recorder writing into `directory` (created if needed).
    public init(directory: URL, options: RecordingOptions = RecordingOptions(), logger: Logger = Logger(label: "apicheck.record")) throws(RecordingError) {
        let sensitive = options.matchHeaders.filter { RecordingRedactor(options: options).isSensitive(header: $0) }
        guard sensitive.isEmpty else {
            throw RecordingError("cannot match on \(sensitive.joined(separator: ", ")): its values are secrets and are never written; leave out --match-header \(sensitive[0])")
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw RecordingError("cannot create the recording folder \(directory.path): \(error.localizedDescription)")
        }
        self.directory = directory.resolvingSymlinksInPath().standardizedFileURL
        self.options = options
        self.logger = logger
        self.state = Mutex(State(redactor: RecordingRedactor(options: options)))
    }

    /// What was recorded so far.
    public var summary: RecordingSummary { state.withLock { $0.summary } }

    /// Records one exchange; returns what happened to it. Never throws: a failure to write is an
    /// outcome (and a log line), so a proxy keeps answering.
    @discardableResult
    public func record(_ exchange: RecordedExchange) -> RecordingOutcome {
        let method = exchange.request.method.uppercased()
        guard method != "HEAD" else { return note(.skipped("HEAD is answered by the GET stub; not recorded")) }
        guard exchange.response.body.count <= options.maximumBodyBytes else {
            return note(.skipped("\(method) \(exchange.request.path): the body (\(exchange.response.body.count) bytes) is over the recording limit of \(options.maximumBodyBytes) bytes"))
        }
        // A proxy sees the same answers again and again: recognising one by its raw bytes skips
        // redacting, templating and comparing it again.
        let stubPath = Self.relativePath(for: exchange.request, options: options)
        var hasher = Hasher()
        hasher.combine(exchange.response.status)
        // Only what a stub keeps: a changing Date (or a hop-by-hop header) is not a new answer.
        for header in exchange.response.headers where !header.name.caseInsensitiveEquals("Date") && !UpstreamResponse.isHopByHop(header.name) {
            hasher.combine(header)
        }
        hasher.combine(exchange.response.body)
        let answer = hasher.finalize()
        return state.withLock { state in
            state.redactor.learn(from: exchange.request)
            if state.answers[stubPath]?.contains(answer) == true {
                state.summary.add(.repeated(stubPath))
                return .repeated(stubPath)
            }
            let outcome = write(exchange, method: method, state: &state)
            switch outcome {
            case .written, .appended, .repeated:
                // Bounded: a long-running proxy sees ever new answers (request ids, timestamps).
                if state.answers[stubPath, default: []].count >= Self.rememberedAnswersPerStub { state.answers[stubPath] = [] }
                state.answers[stubPath, default: []].insert(answer)
            default: break
            }
            state.summary.add(outcome)
            if case .written(let path) = outcome, exchange.response.status >= 400 { state.summary.errorAnswers[path] = exchange.response.status }
            switch outcome {
            case .failed(let message): logger.error("\(message)")
            case .skippedExisting(let path): logger.warning("\(path) exists: not overwritten (use --overwrite)")
            default: logger.debug("recorded", metadata: ["outcome": "\(outcome)"])
            }
            return outcome
        }
    }

    /// Counts an exchange the caller could not hand over whole (e.g. a crawl's body cut at
    /// `--max-body`): the summary says it was not recorded, and why.
    public func skip(_ reason: String) {
        _ = note(.skipped(reason))
    }

    private func note(_ outcome: RecordingOutcome) -> RecordingOutcome {
        state.withLock { $0.summary.add(outcome) }
        logger.info("\(outcome)")
        return outcome
    }

    private func write(_ exchange: RecordedExchange, method: String, state: inout State) -> RecordingOutcome {
        var request = exchange.request
        let matched = options.matchHeaders.compactMap { name in request.headers.first { $0.name.caseInsensitiveEquals(name) } }
        // A token's value names nothing: requests with any token share the stub (and the name).
        request.query = request.query.map { item in
            state.redactor.isSensitive(queryParameter: item.name) ? StubRequest.QueryItem(name: item.name, value: nil) : item
        }
        let components = StubFileNaming.baseName(method: method, path: request.path, query: request.query, matchedHeaders: matched)
        let stubPath = Self.relativePath(for: request, options: options)
        let bodyBase = components.last! + ".body"
        if state.refused.contains(stubPath) { return .skippedExisting(stubPath) }
        let existing = state.stubs[stubPath]
        if existing == nil, !options.overwrite, FileManager.default.fileExists(atPath: directory.appendingPathComponent(stubPath).path) {
            state.refused.insert(stubPath)
            return .skippedExisting(stubPath)
        }
        var notes = Set<String>()
        let responseIndex = existing?.responses.count ?? 0
        let suffix = responseIndex == 0 ? "" : "-\(responseIndex + 1)"
        let response: RecordedResponse
        var files: [(String, Data)] = []
        do {
            (response, files) = try recordedResponse(
                exchange, redactor: state.redactor, folder: components.dropLast(), fileBase: bodyBase + suffix, notes: &notes)
        } catch {
            return .failed("\(method) \(request.path): \(error)")
        }
        var stub: RecordedStub
        if var existing {
            if existing.responses.contains(where: { $0.sameAnswer(as: response) }) { return .repeated(stubPath) }
            guard options.sequences else { return .differed(stubPath) }
            existing.responses.append(response)
            stub = existing
        } else {
            stub = RecordedStub(
                name: "\(method) \(request.path)",
                description: "Recorded from \(state.redactor.redaction.url(exchange.upstream + Self.target(of: request))) on \(Self.timestamp(exchange.date)).",
                method: method, path: StubFileNaming.stubPath(request.path),
                query: request.query.map { item in
                    state.redactor.isSensitive(queryParameter: item.name) ? (item.name, nil) : (item.name, item.value ?? "")
                },
                headers: matched, responses: [response])
            if request.query.contains(where: { state.redactor.isSensitive(queryParameter: $0.name) }) { notes.insert("token-like query parameters") }
        }
        do {
            for (path, data) in files { try writeAtomically(data, to: path) }
            let text = options.format == .json ? StubDocument.json(stub) : StubDocument.xml(stub)
            try writeAtomically(Data(text.utf8), to: stubPath)
        } catch {
            return .failed("\(method) \(request.path): cannot write \(stubPath): \(error)")
        }
        state.stubs[stubPath] = stub
        state.summary.redacted.formUnion(notes)
        return responseIndex == 0 ? .written(stubPath) : .appended(stubPath, response: responseIndex + 1)
    }

    /// Where the stub for `request` is written, relative to the recording folder (`orders/42.json`):
    /// `verify --update` finds a recorded stub's recording folder from it.
    public static func relativePath(for request: StubRequest, options: RecordingOptions) -> String {
        let matched = options.matchHeaders.compactMap { name in request.headers.first { $0.name.caseInsensitiveEquals(name) } }
        // Token values name nothing (they are written as "any value"): a live request with a real
        // token finds the file its recording wrote.
        let redactor = RecordingRedactor(options: options)
        let query = request.query.map { item in
            redactor.isSensitive(queryParameter: item.name) ? StubRequest.QueryItem(name: item.name, value: nil) : item
        }
        let components = StubFileNaming.baseName(method: request.method.uppercased(), path: request.path, query: query, matchedHeaders: matched)
        return (components.dropLast() + [components.last! + "." + options.format.rawValue]).joined(separator: "/")
    }

    /// `/path?query` as the client asked for it (decoded).
    static func target(of request: StubRequest) -> String {
        request.query.isEmpty ? request.path : request.path + "?" + request.query.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }.joined(separator: "&")
    }

    static func timestamp(_ date: Date) -> String {
        ISO8601Time.string(date, fractionalSeconds: false)
    }

    // MARK: Files

    /// Writes `data` to `relativePath` inside the folder through a temporary file and a rename, so
    /// a reader (or a crash) never sees half a file; refuses any path that resolves outside.
    func writeAtomically(_ data: Data, to relativePath: String) throws(RecordingError) {
        let target = directory.appendingPathComponent(relativePath).standardizedFileURL
        let folder = target.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw RecordingError("cannot create \(folder.path): \(error.localizedDescription)")
        }
        // A symbolic link inside the folder could lead out of it: check where the folder really is.
        let realFolder = folder.resolvingSymlinksInPath().standardizedFileURL.path
        guard realFolder == directory.path || realFolder.hasPrefix(directory.path + "/") else {
            throw RecordingError("\(relativePath) would be written outside \(directory.path); not written")
        }
        let temporary = folder.appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary)
            // rename(2) replaces the target atomically, existing or not.
            guard rename(temporary.path, target.path) == 0 else {
                throw RecordingError(String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw RecordingError("cannot write \(target.path): \(error.localizedDescription)")
        }
    }
}

/// Why a recording cannot start or an exchange cannot be written.
public struct RecordingError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// What happened to one recorded exchange.
public enum RecordingOutcome: Sendable, Equatable, CustomStringConvertible {
    /// A new stub file.
    case written(String)
    /// The next response of a sequence (`--sequences`): its number.
    case appended(String, response: Int)
    /// The same answer as already recorded: nothing written.
    case repeated(String)
    /// A different answer for a recorded resource, not kept (no `--sequences`).
    case differed(String)
    /// The file existed before the recording and `--overwrite` was not given.
    case skippedExisting(String)
    /// Not recorded, and why.
    case skipped(String)
    case failed(String)

    public var description: String {
        switch self {
        case .written(let path): "wrote \(path)"
        case .appended(let path, let number): "added response \(number) to \(path)"
        case .repeated(let path): "same answer as \(path): nothing written"
        case .differed(let path): "a different answer for \(path) was not kept (record with --sequences to keep each)"
        case .skippedExisting(let path): "\(path) exists: not overwritten (use --overwrite)"
        case .skipped(let reason): "not recorded: \(reason)"
        case .failed(let message): "not recorded: \(message)"
        }
    }
}

/// What a recording did, for its report.
public struct RecordingSummary: Sendable, Equatable, CustomStringConvertible {
    /// Nothing recorded yet.
    public init() {}

    public var written: [String] = []
    public var appended = 0
    public var repeated = 0
    public var differed: Set<String> = []
    public var skippedExisting: Set<String> = []
    public var skipped: [String] = []
    public var failed: [String] = []
    /// What kinds of secrets were replaced (`header Authorization`, `Set-Cookie values`, …).
    public var redacted: Set<String> = []
    /// Stub files that hold a 4xx or 5xx answer, with its status: often a credential the client
    /// did not send, which a reader of the summary should see before trusting the recording.
    public var errorAnswers: [String: Int] = [:]

    mutating func add(_ outcome: RecordingOutcome) {
        switch outcome {
        case .written(let path): written.append(path)
        case .appended: appended += 1
        case .repeated: repeated += 1
        case .differed(let path): differed.insert(path)
        case .skippedExisting(let path): skippedExisting.insert(path)
        case .skipped(let reason): skipped.append(reason)
        case .failed(let message): failed.append(message)
        }
    }

    public var description: String {
        var lines = ["\(written.count) stub file\(written.count == 1 ? "" : "s") written" + (appended > 0 ? ", \(appended) sequence response\(appended == 1 ? "" : "s") added" : "") + (repeated > 0 ? ", \(repeated) repeated request\(repeated == 1 ? "" : "s") with the same answer" : "")]
        if !redacted.isEmpty { lines.append("redacted: \(redacted.sorted().joined(separator: ", "))") }
        if !differed.isEmpty { lines.append("\(differed.count) resource\(differed.count == 1 ? "" : "s") answered differently later; the first answer was kept (use --sequences): \(differed.sorted().prefix(5).joined(separator: ", "))") }
        if !skippedExisting.isEmpty { lines.append("\(skippedExisting.count) existing file\(skippedExisting.count == 1 ? "" : "s") not overwritten (use --overwrite): \(skippedExisting.sorted().prefix(5).joined(separator: ", "))") }
        if !skipped.isEmpty { lines.append("\(skipped.count) not recorded: \(Array(Set(skipped)).sorted().prefix(3).joined(separator: "; "))") }
        if !failed.isEmpty { lines.append("\(failed.count) failed: \(failed.prefix(3).joined(separator: "; "))") }
        if !errorAnswers.isEmpty {
            let listed = errorAnswers.sorted { $0.key < $1.key }.prefix(5).map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
            let credentials = errorAnswers.values.contains { $0 == 401 || $0 == 403 } ? "; a 401 or 403 usually means the client sent no credentials" : ""
            lines.append("\(errorAnswers.count) recorded \(errorAnswers.count == 1 ? "answer is an error" : "answers are errors"): \(listed)\(credentials)")
        }
        return lines.joined(separator: "\n")
    }
}
