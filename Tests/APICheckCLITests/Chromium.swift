import Foundation
import Testing

/// Headless Chromium (Debian's `chromium`), as the browser tests drive it: load a page, let its
/// script run, and read back the DOM or a screenshot.
///
/// Chromium is kept off the network: every request that is not a file or a loopback address goes
/// to a proxy at 127.0.0.1:9, where nothing listens, and its background services (updates, safe
/// browsing, metrics) are off. `.ci/run` installs it; set `APICHECK_REQUIRE_CHROMIUM=1` (CI does)
/// to make a missing browser a failure rather than a skipped suite.
enum Chromium {
    static let path: String? = {
        if let configured = ProcessInfo.processInfo.environment["CHROMIUM"], FileManager.default.isExecutableFile(atPath: configured) { return configured }
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    /// Whether the browser tests run: Chromium is here, or it is required (then they fail without it).
    static var isAvailable: Bool { path != nil || ProcessInfo.processInfo.environment["APICHECK_REQUIRE_CHROMIUM"] == "1" }

    /// Where screenshots go: under the build folder, beside the test bundle.
    static var screenshotFolder: URL {
        let folder = CLI.repository.appendingPathComponent(".build/browser-tests")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The page's DOM once its scripts ran (a virtual-time budget lets timers fire).
    static func dom(of url: String) throws -> String {
        try run(["--dump-dom", "--virtual-time-budget=5000", url]).stdout
    }

    /// A screenshot of the page, `width`×`height`, into `file`.
    static func screenshot(of url: String, to file: URL, width: Int = 1400, height: Int = 1100) throws {
        _ = try run(["--hide-scrollbars", "--window-size=\(width),\(height)", "--virtual-time-budget=5000", "--screenshot=\(file.path)", url])
    }

    private static func run(_ arguments: [String]) throws -> CLIResult {
        let binary = try #require(path, "Chromium is required (APICHECK_REQUIRE_CHROMIUM=1) but neither chromium nor chromium-browser is installed: apt-get install -y chromium")
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        return try CLI.runProcess(
            URL(fileURLWithPath: binary),
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile.path)",
                "--proxy-server=http://127.0.0.1:9", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-default-apps", "--disable-domain-reliability", "--metrics-recording-only", "--disable-client-side-phishing-detection",
            ] + arguments)
    }
}

extension String {
    /// How many times `part` occurs.
    func occurrences(of part: String) -> Int { components(separatedBy: part).count - 1 }
}
