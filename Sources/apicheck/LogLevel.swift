import ArgumentParser
import Logging

/// `--log-level`: swift-log's levels, logged to standard error.
enum LogLevel: String, ExpressibleByArgument, CaseIterable {
    case trace, debug, info, notice, warning, error, critical

    var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .info }

    /// Sends every logger of the process to standard error at this level; call once, first.
    func bootstrap() {
        let level = level
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
