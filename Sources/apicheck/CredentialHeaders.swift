import APICheckModel
import ArgumentParser
import Foundation

/// `--header` and `--header-from-env`: what `crawl` and `verify` send to a live API, redacted
/// from every report.
struct CredentialHeaders: ParsableArguments {
    @Option(help: ArgumentHelp("A header sent with every request to the API (only to its origin, never where a redirect leads); its value is redacted from every report and recording.", valueName: "name: value"))
    var header: [String] = []

    @Option(
        name: .customLong("header-from-env"),
        help: ArgumentHelp(
            "A header whose value names environment variables, expanded by apicheck (quote it so the shell does not): 'Authorization: Bearer $API_TOKEN'. Keeps tokens off the command line.",
            valueName: "name: value with $VAR"))
    var headerFromEnvironment: [String] = []

    func parsed() throws -> [HTTPHeader] {
        func split(_ text: String, _ option: String) throws -> HTTPHeader {
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
                throw ValidationError("\(option) '\(text)' is not 'Name: value'.")
            }
            return HTTPHeader(name: String(text[..<colon]).trimmingCharacters(in: .whitespaces), value: String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
        var headers = try header.map { try split($0, "--header") }
        for text in headerFromEnvironment {
            var parsed = try split(text, "--header-from-env")
            parsed.value = try EnvironmentExpansion.expand(parsed.value, in: ProcessInfo.processInfo.environment, option: "--header-from-env '\(parsed.name)'")
            headers.append(parsed)
        }
        return headers
    }
}
