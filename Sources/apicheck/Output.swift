import APICheckModel
import ArgumentParser
import Foundation

/// Everything the CLI writes goes through here: colour only on a terminal, and never when
/// NO_COLOR is set (no-color.org).
struct Output {
    let useColor: Bool

    init(fileDescriptor: Int32 = STDOUT_FILENO) {
        let environment = ProcessInfo.processInfo.environment
        useColor = isatty(fileDescriptor) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    func writeError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    func format(_ diagnostic: Diagnostic) -> String {
        let label: String
        switch (diagnostic.severity, useColor) {
        case (.error, true): label = "\u{1B}[1;31merror:\u{1B}[0m"
        case (.warning, true): label = "\u{1B}[1;33mwarning:\u{1B}[0m"
        case (.note, true): label = "\u{1B}[1;36mnote:\u{1B}[0m"
        default: label = diagnostic.severity.rawValue + ":"
        }
        return "\(diagnostic.location): \(label) \(diagnostic.message)"
    }
}

/// `--root` must name an existing folder.
func validateRoot(_ root: String?) throws {
    guard let root else { return }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw ValidationError("--root '\(root)' is not a folder.")
    }
}
