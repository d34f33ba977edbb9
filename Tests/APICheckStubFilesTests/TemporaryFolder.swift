import Foundation

/// A scratch folder for one test, removed when the test ends.
final class TemporaryFolder {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> String {
        try write(relativePath, Data(text.utf8))
    }

    @discardableResult
    func write(_ relativePath: String, _ data: Data) throws -> String {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file.path
    }
}

enum Fixtures {
    /// The fixtures copied into the test bundle.
    static var folder: String {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path
    }

    /// The repository root, for checks of files the project ships (stubs/, schemas/).
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static func stub(xml body: String, statusCode: String = "200", annotation: String = #"<annotation name="s" uri-path="/s" request-method="GET">d</annotation>"#) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" ?>
        <http-response statusCode="\(statusCode)">
          \(annotation)
          \(body)
        </http-response>
        """
    }
}
