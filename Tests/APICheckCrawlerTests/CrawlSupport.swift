import Foundation

enum Repository {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
}
