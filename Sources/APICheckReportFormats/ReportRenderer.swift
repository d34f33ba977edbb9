import APICheckFindings
import APICheckModel
import APICheckSpool

/// Turns a report into text in one format. Renderers are pure: the CLI writes the string to
/// standard output or `--output FILE`.
public protocol ReportRenderer: Sendable {
    /// The whole output for `report`.
    func render(_ report: CrawlReport) -> String

    /// The output in pieces of about `chunkBytes`, handed to `sink` in order; concatenated they
    /// equal ``render(_:)``. Formats that grow with the crawl stream, so a report of a large API
    /// never has to exist as one string.
    func render(_ report: CrawlReport, chunkBytes: Int, to sink: (String) throws -> Void) rethrows
}

/// The size of the pieces a streaming ``ReportRenderer`` hands out.
public enum ReportChunk {
    public static let defaultSize = 64 << 10
}

extension ReportRenderer {
    /// One piece: the whole ``render(_:)``.
    public func render(_ report: CrawlReport, chunkBytes: Int, to sink: (String) throws -> Void) rethrows {
        try sink(render(report))
    }
}

/// The formats of `apicheck crawl --format`.
public enum ReportFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// ``TextReportRenderer``.
    case text
    /// ``JSONReportRenderer``.
    case json
    /// ``JUnitReportRenderer``.
    case junit
    /// ``GitHubAnnotationsRenderer``.
    case github
    /// ``SARIFReportRenderer``.
    case sarif
    /// ``MarkdownReportRenderer``.
    case markdown

    /// The renderer for this format. `useColor` only affects `text`: pass true only when
    /// writing to a terminal (and `NO_COLOR` is unset). `allOccurrences` only affects `json`.
    public func renderer(useColor: Bool = false, verbose: Bool = false, allOccurrences: Bool = false) -> any ReportRenderer {
        switch self {
        case .text: TextReportRenderer(useColor: useColor, listsEveryOccurrence: verbose)
        case .json: JSONReportRenderer(occurrencesListed: allOccurrences ? nil : Defect.occurrencesListed)
        case .junit: JUnitReportRenderer()
        case .github: GitHubAnnotationsRenderer()
        case .sarif: SARIFReportRenderer()
        case .markdown: MarkdownReportRenderer(listsEveryOccurrence: verbose)
        }
    }

    /// The usual file extension, for `--output` defaults and artifact names.
    public var fileExtension: String {
        switch self {
        case .text: "txt"
        case .json: "json"
        case .junit: "xml"
        case .github: "txt"
        case .sarif: "sarif"
        case .markdown: "md"
        }
    }

    /// The `--format` value.
    public var description: String { rawValue }
}
