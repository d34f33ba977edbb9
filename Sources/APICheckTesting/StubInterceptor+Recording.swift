import APICheckInterceptor
import APICheckModel
import APICheckRecording
import Foundation
import Logging
import Synchronization

/// Writes what passes through an interceptor as stub files: the ``PassthroughObserver`` the helpers
/// install in a record mode. The interceptor holds it (in its options), so it lives as long as the
/// interceptor and no table is needed to find it again.
final class StubRecordingObserver: PassthroughObserver {
    let recorder: StubRecorder
    let mode: RecordMode
    private let logger: Logger
    private let finished = Mutex(false)

    /// Where the mode came from, for the log line: `APICHECK_RECORD=missing` or `recordMissing`.
    let modeSource: String

    init(recorder: StubRecorder, mode: RecordMode, modeSource: String, logger: Logger) {
        self.recorder = recorder
        self.mode = mode
        self.modeSource = modeSource
        self.logger = logger
    }

    func passedThrough(_ exchange: RecordedExchange) {
        recorder.record(exchange)
    }

    /// Logs the summary, once: when the helper's test ends, or else when the interceptor goes.
    func finish() {
        let first = finished.withLock { finished in
            defer { finished = true }
            return !finished
        }
        guard first else { return }
        let summary = recorder.summary
        let troubled = !summary.failed.isEmpty || !summary.skippedExisting.isEmpty || !summary.differed.isEmpty
        // A test whose stubs answered everything recorded nothing: worth a line only when asked.
        let idle = summary == RecordingSummary()
        logger.log(
            level: troubled ? .warning : idle ? .debug : .notice,
            "recorded (\(modeSource)) into \(recorder.directory.path): \(summary)")
    }

    deinit { finish() }
}

/// What a helper loads and how it sets up its interceptor for a ``StubRecording``, decided before
/// the stub files are loaded (the folder may have to be created first).
struct PreparedRecording {
    /// The stub paths to load: the caller's, and the recording folder if it is not among them.
    var paths: [String]
    var observer: StubRecordingObserver?

    init(paths: [String], recording: StubRecording, environment: [String: String], logger: Logger?) throws(RecordingSetupError) {
        let mode = try recording.effectiveMode(environment: environment)
        self.paths = paths
        if let directory = recording.directory, !Self.contains(paths, directory) { self.paths.append(directory) }
        guard mode != .replay else { return }
        let folder: String
        if let directory = recording.directory {
            folder = directory
        } else {
            guard let first = paths.first else { throw .noFolder(mode) }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: first, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw .noFolder(mode, path: first)
            }
            folder = first
        }
        var options = recording.options
        if mode == .recordAll { options.overwrite = true }
        let logger = logger ?? Logger.current
        do {
            // Creates the folder: an empty (or new) folder records on the first run, replays after.
            let recorder = try StubRecorder(directory: URL(fileURLWithPath: folder), options: options, logger: logger)
            let fromEnvironment = (try? RecordMode.fromEnvironment(environment)) ?? nil
            let source = fromEnvironment != nil ? "\(RecordMode.environmentVariable)=\(mode.rawValue)" : "\(mode)"
            observer = StubRecordingObserver(recorder: recorder, mode: mode, modeSource: source, logger: logger)
        } catch {
            throw .recorder(error)
        }
    }

    /// Whether loading `paths` loads `folder` already (it is one of them, or inside one).
    static func contains(_ paths: [String], _ folder: String) -> Bool {
        let folder = URL(fileURLWithPath: folder).standardizedFileURL.path
        return paths.contains { path in
            let path = URL(fileURLWithPath: path).standardizedFileURL.path
            return folder == path || folder.hasPrefix(path.hasSuffix("/") ? path : path + "/")
        }
    }

    /// `base` with what the mode needs: passthrough of misses (`recordMissing`) or of everything
    /// (`recordAll`), and the recorder watching. Unchanged in replay.
    func options(_ base: StubInterceptor.Options) -> StubInterceptor.Options {
        guard let observer else { return base }
        var options = base
        options.passthroughObserver = observer
        switch observer.mode {
        case .replay: break
        case .recordMissing: options.passthrough = true
        case .recordAll: options.bypassStubs = true
        }
        return options
    }
}

extension StubInterceptor {
    /// What this interceptor's recording has written so far; `nil` when it is not recording.
    public var recordingSummary: RecordingSummary? { recordingObserver?.recorder.summary }

    /// The record mode in effect (after `APICHECK_RECORD`): ``RecordMode/replay`` unless a
    /// recording helper made this interceptor in a record mode.
    public var recordMode: RecordMode { recordingObserver?.mode ?? .replay }

    /// The folder this interceptor records into; `nil` when it is not recording.
    public var recordingDirectory: URL? { recordingObserver?.recorder.directory }

    private var recordingObserver: StubRecordingObserver? { options.passthroughObserver as? StubRecordingObserver }

    /// Logs the recording's summary now (once), if recording: the scoped helpers call it when the
    /// test ends.
    func finishRecording() { recordingObserver?.finish() }
}
