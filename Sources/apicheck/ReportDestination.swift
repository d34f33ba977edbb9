import APICheckFindings
import APICheckHTMLReport
import APICheckModel
import APICheckReportFormats
import APICheckSpool
import ArgumentParser
import Foundation

/// One rendering of a report: a format and where it goes, a file or (`path == nil`) standard
/// output. `--format junit=report.xml` is `ReportDestination(format: .report(.junit), path: "report.xml")`.
struct ReportDestination: Equatable {
    var format: ReportOutputFormat
    /// The file to replace atomically; `nil` for standard output.
    var path: String?
    /// The file came from `--output` rather than `=FILE`: messages then name what was typed.
    var pathFromOutputOption = false

    /// The destination as the command line gave it, for messages: `--format junit=report.xml`,
    /// `--format junit --output report.xml`, `--format text`.
    var spelled: String {
        guard let path else { return "--format \(format)" }
        return pathFromOutputOption ? "--format \(format) --output \(path)" : "--format \(format)=\(path)"
    }

    /// The option that named the file, quoted as a message starts: `--output 'report.xml'`,
    /// `--format 'junit=report.xml'`.
    var fileOption: String {
        pathFromOutputOption ? "--output '\(path ?? "")'" : "--format '\(format)=\(path ?? "")'"
    }
}

extension ReportDestination {
    /// The renderings that `--format F[=FILE]` (repeatable) and `--output FILE` ask for, in the
    /// order given.
    ///
    /// - No `--format`: text, as before several formats existed.
    /// - `--output FILE` is the file of the one format given without `=FILE` (so the older
    ///   `--format junit --output report.xml` still works); it may be given once, and only when
    ///   exactly one format lacks a file. Anything else would leave a reader guessing which
    ///   format lands where, so it is refused rather than resolved by position.
    /// - At most one format goes to standard output: two would interleave into neither format.
    /// - No file is written twice: the second rendering would silently replace the first.
    ///
    /// Throws a `ValidationError` (exit 2) that says how to write the command instead.
    static func resolve(formats: [String], outputs: [String]) throws -> [ReportDestination] {
        var destinations = try formats.map(parse)
        if destinations.isEmpty { destinations = [ReportDestination(format: .report(.text))] }
        try assignOutput(outputs, to: &destinations)
        try refuseTwoOnStandardOutput(destinations)
        try refuseAFileWrittenTwice(destinations)
        return destinations
    }

    /// `junit` or `junit=report.xml`.
    private static func parse(_ argument: String) throws -> ReportDestination {
        let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        let known = ReportOutputFormat.allNames
        guard let format = ReportOutputFormat(rawValue: name) else {
            let suggestion = Suggestion.closest(to: name, in: known).map { " Did you mean '\($0)'?" } ?? ""
            throw ValidationError("--format '\(argument)': unknown format '\(name)'.\(suggestion) Formats: \(known.joined(separator: ", ")).")
        }
        guard parts.count == 2 else { return ReportDestination(format: format) }
        let path = String(parts[1])
        if path.isEmpty {
            throw ValidationError(
                "--format '\(argument)' names no file after '='; write --format \(name)=\(exampleFile(for: format)), or --format \(name) for standard output.")
        }
        return ReportDestination(format: format, path: path)
    }

    /// `--output FILE` becomes the file of the one format without `=FILE`.
    private static func assignOutput(_ outputs: [String], to destinations: inout [ReportDestination]) throws {
        guard let output = outputs.first else { return }
        let bare = destinations.indices.filter { destinations[$0].path == nil }
        if outputs.count > 1 {
            // Pairing by position is what `--format a --output x --format b --output y` meant;
            // say so as a command rather than guessing silently.
            var hint = "give each format its own file: --format junit=report.xml --format sarif=report.sarif"
            if bare.count == outputs.count {
                hint = "write " + zip(bare, outputs).map { "--format \(destinations[$0].format)=\($1)" }.joined(separator: " ")
            }
            throw ValidationError("--output is given \(outputs.count) times (\(outputs.joined(separator: ", "))) but takes one file; \(hint).")
        }
        switch bare.count {
        case 1:
            destinations[bare[0]].path = output
            destinations[bare[0]].pathFromOutputOption = true
        case 0:
            throw ValidationError(
                "--output '\(output)' has no format to apply to: every --format names its own file. "
                    + "Leave out --output, or add the format it is for, e.g. --format text=\(output).")
        default:
            let formats = bare.map { destinations[$0].format.rawValue }
            throw ValidationError(
                "--output '\(output)' applies to the one --format given without '=FILE', but \(formats.joined(separator: " and ")) have none; "
                    + "give each its own file instead: "
                    + bare.map { "--format \(destinations[$0].format)=\(exampleFile(for: destinations[$0].format))" }.joined(separator: " ") + ".")
        }
    }

    private static func refuseTwoOnStandardOutput(_ destinations: [ReportDestination]) throws {
        let onStandardOutput = destinations.filter { $0.path == nil }
        guard onStandardOutput.count > 1 else { return }
        let others = onStandardOutput.dropFirst().map { "--format \($0.format)=\(exampleFile(for: $0.format))" }
        throw ValidationError(
            "\(onStandardOutput.map(\.spelled).joined(separator: " and ")) would \(onStandardOutput.count == 2 ? "both" : "all") write to standard output, where at most one format may go; "
                + "give the others a file, e.g. \(others.joined(separator: " ")).")
    }

    private static func refuseAFileWrittenTwice(_ destinations: [ReportDestination]) throws {
        var seen: [String: ReportDestination] = [:]
        for destination in destinations {
            guard let path = destination.path else { continue }
            let identity = fileIdentity(path)
            if let first = seen[identity] {
                throw ValidationError(
                    "\(first.spelled) and \(destination.spelled) write the same file; the second would replace the first. Give each format its own file.")
            }
            seen[identity] = destination
        }
    }

    /// The file `path` names however it is spelled (`a.xml`, `./a.xml`, a symbolic link to its
    /// folder): its folder resolved, then its name. The file itself need not exist yet.
    static func fileIdentity(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let folder = url.deletingLastPathComponent().path
        let resolved = realpath(folder, nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        } ?? folder
        return resolved + "/" + url.lastPathComponent
    }

    /// `report.xml` for junit: the file name the hints suggest (distinct per format, so a hint
    /// followed as written is never refused for naming one file twice).
    static func exampleFile(for format: ReportOutputFormat) -> String {
        format == .report(.github) ? "annotations.txt" : "report.\(format.fileExtension)"
    }
}

/// A `--format` value: one of the library's report formats (``ReportFormat``), or `html`, the
/// self-contained page with the API's map that only the command-line tool renders
/// (``APICheckHTMLReport/HTMLReportRenderer``: its Content-Security-Policy hashes need swift-crypto,
/// which apps that use the library for their tests do not fetch).
enum ReportOutputFormat: Equatable, CustomStringConvertible {
    case report(ReportFormat)
    case html

    static var allNames: [String] { ReportFormat.allCases.map(\.rawValue) + ["html"] }

    init?(rawValue: String) {
        if rawValue == "html" {
            self = .html
        } else if let format = ReportFormat(rawValue: rawValue) {
            self = .report(format)
        } else {
            return nil
        }
    }

    var rawValue: String {
        switch self {
        case .report(let format): format.rawValue
        case .html: "html"
        }
    }

    var description: String { rawValue }

    var fileExtension: String {
        switch self {
        case .report(let format): format.fileExtension
        case .html: "html"
        }
    }

    func renderer(useColor: Bool, verbose: Bool, allOccurrences: Bool) -> any ReportRenderer {
        switch self {
        case .report(let format): format.renderer(useColor: useColor, verbose: verbose, allOccurrences: allOccurrences)
        case .html: HTMLReportRenderer()
        }
    }
}
