/// Why a certificate, a key or a trust root could not be used: the file, and what to do.
///
/// `description` reads `path: error: what is wrong` (the form every located error of APICheck
/// takes), so the CLI prints it as it is.
public struct TLSSetupError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The file at fault, when one is.
    public var path: String?
    public var message: String

    public init(path: String?, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String {
        if let path { return "\(path): error: \(message)" }
        return "error: \(message)"
    }
}
