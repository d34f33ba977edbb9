import APICheckInterceptor
import APICheckRecording
import Foundation
import Logging

/// What a test's stubs do with the real network, after VCR's record modes.
///
/// | Mode | Stubs | Requests the stubs do not answer | Written to the stub folder |
/// |---|---|---|---|
/// | ``replay`` (default) | answer | fail with the near-miss report (hermetic) | nothing |
/// | ``recordMissing`` | answer what they match | go to the network | their answers (VCR's `:new_episodes`) |
/// | ``recordAll`` | not consulted | every request goes to the network | every answer, replacing files (VCR's `:all`) |
///
/// The mode set in code is the default; the environment variable `APICHECK_RECORD`
/// (`replay`, `missing` or `all`), when set, wins over it, so a developer re-records without
/// editing a test: `APICHECK_RECORD=missing swift test --filter CartTests`. It is read once, when
/// a helper makes its interceptor, and any other value is an error
/// (``RecordingSetupError/invalidEnvironmentValue(_:)``), not a silent replay. A test left at
/// ``recordMissing`` still sends whatever no stub answers to the network on every run: set
/// `APICHECK_RECORD=replay` in CI, or go back to ``replay`` in code once the recording is made, to
/// keep the suite hermetic.
public enum RecordMode: String, Sendable, Hashable, CaseIterable {
    /// Stubs answer; a request no stub answers fails (nothing reaches the network).
    case replay
    /// Stubs answer what they match; other requests go to the network and their answers are
    /// written as stub files (an existing file is left alone unless ``RecordingOptions/overwrite``).
    case recordMissing = "missing"
    /// Every request goes to the network, the stubs are not consulted, and every answer is
    /// written, replacing the file recorded before (`overwrite` is implied).
    case recordAll = "all"

    /// `APICHECK_RECORD`: `replay`, `missing` or `all` (case-insensitive); unset or empty means
    /// "the mode the test asks for".
    public static let environmentVariable = "APICHECK_RECORD"

    /// The mode `APICHECK_RECORD` asks for in `environment`; `nil` when it is unset or empty.
    ///
    /// ```swift
    /// try RecordMode.fromEnvironment(["APICHECK_RECORD": "missing"])  // .recordMissing
    /// ```
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(RecordingSetupError) -> RecordMode? {
        guard let raw = environment[environmentVariable] else { return nil }
        let value = raw.trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { return nil }
        guard let mode = RecordMode(rawValue: value.lowercased()) else { throw .invalidEnvironmentValue(raw) }
        return mode
    }
}

/// How a test helper records: the ``RecordMode``, the folder and how files are written.
///
/// ```swift
/// @Test(.stubs("stubs", record: .recordMissing)) func listsGists() async throws { … }
///
/// let recording = StubRecording(.recordMissing, options: RecordingOptions(secrets: [token]))
/// try await withStubs("stubs", record: recording) { stubs in … }
/// ```
public struct StubRecording: Sendable {
    /// The mode when `APICHECK_RECORD` is not set.
    public var mode: RecordMode
    /// The folder recorded into. `nil`: the first stub path loaded, which must then be a folder
    /// (created if missing). A folder given here is loaded too, after the others, so that the
    /// next run replays what this one recorded.
    public var directory: String?
    /// How stub files are written: format, secrets, matched headers, sequences, the body limit
    /// (bodies over ``RecordingOptions/maximumBodyBytes`` are not recorded, and the summary says so).
    public var options: RecordingOptions
    /// Where the recording's summary goes when the test ends (and files that could not be written,
    /// as they happen). `nil`: `Logger.current`, the task's logger (swift-log's default handler,
    /// standard output, unless the test binds one with `withLogger`).
    public var logger: Logger?

    public init(_ mode: RecordMode, into directory: String? = nil, options: RecordingOptions = RecordingOptions(), logger: Logger? = nil) {
        self.mode = mode
        self.directory = directory
        self.options = options
        self.logger = logger
    }

    /// Stubs answer, misses fail; nothing is recorded (unless `APICHECK_RECORD` says otherwise).
    public static let replay = StubRecording(.replay)
    /// Requests no stub answers go to the network and are recorded into the stub folder.
    public static let recordMissing = StubRecording(.recordMissing)
    /// Every request goes to the network and is recorded, replacing existing files.
    public static let recordAll = StubRecording(.recordAll)

    /// The mode in effect: `APICHECK_RECORD` in `environment` when set, else ``mode``.
    public func effectiveMode(environment: [String: String] = ProcessInfo.processInfo.environment) throws(RecordingSetupError) -> RecordMode {
        try RecordMode.fromEnvironment(environment) ?? mode
    }
}

/// A recording that cannot start: an invalid `APICHECK_RECORD`, no folder to record into, or a
/// folder the recorder cannot use.
public struct RecordingSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Equatable, Sendable {
        case invalidEnvironmentValue(String)
        case noFolder(RecordMode, path: String?)
        case recorder(String)
    }

    private var code: Code

    /// `APICHECK_RECORD` has a value that is not `replay`, `missing` or `all`.
    public static func invalidEnvironmentValue(_ value: String) -> RecordingSetupError {
        RecordingSetupError(code: .invalidEnvironmentValue(value))
    }

    /// A record mode with neither a folder among the stub paths nor ``StubRecording/directory``;
    /// `path` is the first stub path when it is a file.
    public static func noFolder(_ mode: RecordMode, path: String? = nil) -> RecordingSetupError {
        RecordingSetupError(code: .noFolder(mode, path: path))
    }

    /// The recorder refused to start (the folder cannot be created, a secret header to match on…).
    static func recorder(_ error: RecordingError) -> RecordingSetupError {
        RecordingSetupError(code: .recorder(error.description))
    }

    public var description: String {
        switch code {
        case .invalidEnvironmentValue(let value):
            "\(RecordMode.environmentVariable)=\(value) is not a record mode: use replay, missing or all (or leave it unset)"
        case .noFolder(let mode, let path):
            (path.map { "\($0) is a file: " } ?? "")
                + "record mode \(mode.rawValue) needs a folder to record into: load a stub folder first, or name one with StubRecording(_:into:)"
        case .recorder(let message):
            "cannot record: \(message)"
        }
    }
}
