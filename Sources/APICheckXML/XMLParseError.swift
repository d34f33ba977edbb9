/// Why a document could not be parsed, with the position libxml2 (or the funnel's own checks) reported.
public struct XMLParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var position: XMLPosition
    public var message: String

    public init(position: XMLPosition, message: String) {
        self.position = position
        self.message = message
    }

    public var description: String { "\(position.line):\(position.column): \(message)" }
}
