import Logging
import Synchronization

/// A log handler that keeps every message, so a test can assert what a crawl told its logger.
struct CollectingLogHandler: LogHandler {
    /// The messages logged through every copy of the handler, oldest first.
    final class Messages: Sendable {
        private let storage = Mutex<[String]>([])
        var all: [String] { storage.withLock { $0 } }
        func append(_ message: String) { storage.withLock { $0.append(message) } }
    }

    let messages: Messages
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        messages.append(event.message.description)
    }

    /// A logger whose messages end up in `messages`.
    static func logger(into messages: Messages) -> Logger {
        Logger(label: "apicheck.test") { _ in CollectingLogHandler(messages: messages) }
    }
}
