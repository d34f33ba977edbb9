import APICheckModel

/// Why a template could not be rendered: the file is missing or unreadable, too large, not UTF-8,
/// does not compile, or its output would exceed the rendering bounds.
///
/// It prints like a compiler diagnostic, naming the template file and the line and column of the
/// problem: `templates/movie.json.mustache:3:1: error: section 'items' is never closed`.
public struct TemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The template file (its resolved path), line and column of the problem. Problems with the file
    /// as a whole are at line 1, column 1.
    public var location: SourceLocation
    /// What went wrong, in one sentence without the location.
    public var message: String

    package init(location: SourceLocation, message: String) {
        self.location = location
        self.message = message
    }

    package init(path: String, line: Int = 1, column: Int = 1, _ message: String) {
        self.init(location: SourceLocation(path: path, line: line, column: column), message: message)
    }

    /// `path:line:column: error: message`.
    public var description: String { "\(location): error: \(message)" }

    /// The same problem as a lint ``APICheckModel/Diagnostic`` (severity `error`).
    public var diagnostic: Diagnostic { .error(message, at: location) }
}
