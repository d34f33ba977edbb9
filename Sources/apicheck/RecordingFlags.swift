import APICheckModel
import APICheckRecording
import ArgumentParser
import Foundation

/// The options every way of recording shares (`record`, `serve --record-to`, `crawl --record`).
struct RecordingFlags: ParsableArguments {
    @Option(name: .customLong("match-header"), help: ArgumentHelp("Also match recorded stubs on this request header. Repeatable.", valueName: "name"))
    var matchHeaders: [String] = []

    @Flag(help: "Keep each different answer to a repeated request, as a sequence (default: the first answer is kept).")
    var sequences = false

    @Flag(help: "Replace stub files that already exist in the folder (default: leave them and report them).")
    var overwrite = false

    @Option(name: .customLong("redact-header"), help: ArgumentHelp("Replace this header's values too (Authorization, Cookie, Set-Cookie values and API-key headers always are). Repeatable.", valueName: "name"))
    var redactHeaders: [String] = []

    @Option(name: .customLong("redact-json"), help: ArgumentHelp("Replace the value at this JSON pointer in recorded bodies ('*' matches any key or index). Repeatable.", valueName: "/pointer"))
    var redactJSON: [String] = []

    @Option(name: .customLong("redact-query"), help: ArgumentHelp("Treat this query parameter as a secret too (token, key, password, signature… always are). Repeatable.", valueName: "name"))
    var redactQuery: [String] = []

    func validate() throws {
        for pointer in redactJSON where !pointer.hasPrefix("/") {
            throw ValidationError("--redact-json '\(pointer)' is not a JSON pointer: write it as /field or /items/*/token.")
        }
    }

    func options(format: RecordingOptions.Format, secrets: [String] = []) -> RecordingOptions {
        RecordingOptions(
            format: format, matchHeaders: matchHeaders, sequences: sequences, overwrite: overwrite, redactedHeaders: redactHeaders,
            redactedJSONPointers: redactJSON, redactedQueryParameters: redactQuery, secrets: secrets)
    }
}

extension RecordingOptions.Format: ExpressibleByArgument {}
