import Foundation
import Testing

/// `--header-from-env` end to end: the token comes from the environment, reaches the request and
/// never the report; the reproduction names it as a shell variable.
@Suite struct HeaderFromEnvironmentTests {
    @Test func theTokenIsSentButNeverWritten() throws {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix", "--format", "json", "--header-from-env", "Authorization: Bearer ${APICHECK_TEST_TOKEN}"]
        process.currentDirectoryURL = CLI.repository
        var environment = ProcessInfo.processInfo.environment
        environment["APICHECK_TEST_TOKEN"] = "tok-9f8e7d"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 1)
        #expect(!text.contains("tok-9f8e7d"))
        #expect(text.contains(#""requestHeaders": ["#))
        #expect(text.contains(#"-H \"Authorization: $AUTHORIZATION\""#))
    }
}
