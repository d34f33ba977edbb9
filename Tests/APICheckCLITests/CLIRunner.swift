import Foundation
import Testing

/// Runs the built `apicheck` binary, as a user would.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum CLI {
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The `apicheck` built beside this test bundle.
    static var executable: URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // Linux runs `…/debug/APICheckPackageTests.xctest`; Xcode-style bundles nest deeper.
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("apicheck")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return repository.appendingPathComponent(".build/debug/apicheck")
    }

    static func run(_ arguments: [String], in directory: URL = repository) throws -> CLIResult {
        try runProcess(executable, arguments, in: directory)
    }

    /// Runs any program to its end, its output collected (as ``run(_:in:)`` runs `apicheck`).
    static func runProcess(_ program: URL, _ arguments: [String], in directory: URL = repository) throws -> CLIResult {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting, so a large output cannot fill the pipe and block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }
}

extension Process {
    /// Waits up to `timeout` for the child to exit (polling, so a child that hangs cannot hang the
    /// test), kills it if it is still running, then reaps it with `waitUntilExit()`. Returns whether
    /// it exited by itself. The last step matters on Linux: swift-corelibs-foundation releases a
    /// `Process` only from the run loop that launched it, which `waitUntilExit()` runs; one only
    /// polled with `isRunning` is never freed (about 1 KB and its environment, each reported by
    /// LeakSanitizer; reproduced with `/bin/sleep` alone).
    @discardableResult
    func finish(within timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let exited = !isRunning
        if !exited { kill(processIdentifier, SIGKILL) }
        waitUntilExit()
        return exited
    }
}
