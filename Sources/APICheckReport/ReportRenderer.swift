/// Turns a report into text in one format. Renderers are pure: the CLI writes the string to
/// standard output or `--output FILE`.
public protocol ReportRenderer: Sendable {
    /// The whole output for `report`.
    func render(_ report: CrawlReport) -> String
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
    /// writing to a terminal (and `NO_COLOR` is unset).
    public func renderer(useColor: Bool = false) -> any ReportRenderer {
        switch self {
        case .text: TextReportRenderer(useColor: useColor)
        case .json: JSONReportRenderer()
        case .junit: JUnitReportRenderer()
        case .github: GitHubAnnotationsRenderer()
        case .sarif: SARIFReportRenderer()
        case .markdown: MarkdownReportRenderer()
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
