/// A usage, configuration or input problem found while a command runs rather than while its
/// arguments are parsed: an unreadable baseline, a malformed shard report, an output folder that
/// is gone. `apicheck` prints ``description`` on standard error, without the usage text that
/// ArgumentParser adds to a `ValidationError`, and exits 2 (FORMATS §7).
///
/// The description reads like a compiler diagnostic, `path:line:column: error: message`, and may
/// add lines (`note: …`) that say what to do.
struct UsageError: Error, CustomStringConvertible {
    /// The whole message, one or more lines, without a trailing newline.
    let description: String

    /// An error with this message.
    init(_ description: String) {
        self.description = description
    }

    /// `path: error: message`, for problems that have a file but no position in it.
    init(path: String, message: String, note: String? = nil) {
        self.init("\(path): error: \(message)" + (note.map { "\nnote: \($0)" } ?? ""))
    }
}
