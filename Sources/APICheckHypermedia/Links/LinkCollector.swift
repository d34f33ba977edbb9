import APICheckModel

/// The state of one extraction: links and notes so far, under the extractor's limits.
struct LinkCollector {
    let limits: LinkExtractor.Limits
    /// The response URL: context and base of every body link.
    let base: String
    private(set) var links: [Link] = []
    private(set) var notes: [ShapeNote] = []
    private(set) var formats: [LinkFormat] = []
    /// Links found beyond the limit: counted, not kept, so the report can say how many were dropped.
    private(set) var droppedLinks = 0
    /// Where the first dropped link was written.
    private var firstDropped: LinkSource?
    private var droppedNotes = 0

    init(limits: LinkExtractor.Limits, base: String) {
        self.limits = limits
        self.base = base
    }

    mutating func add(_ link: Link) {
        guard links.count < limits.maximumLinks else {
            if droppedLinks == 0 { firstDropped = link.source }
            droppedLinks += 1
            return
        }
        if !formats.contains(link.format) { formats.append(link.format) }
        links.append(link)
    }

    mutating func note(_ kind: ShapeNote.Kind, _ severity: Diagnostic.Severity, _ format: LinkFormat?, _ source: LinkSource, _ message: String) {
        // A cut-short extraction is always reported: there are only a few such notes.
        guard notes.count < limits.maximumNotes || kind == .limitReached else {
            droppedNotes += 1
            return
        }
        notes.append(ShapeNote(kind: kind, severity: severity, format: format, source: source, message: message))
    }

    /// A `format-shape` warning.
    mutating func shape(_ format: LinkFormat, _ source: LinkSource, _ message: String) {
        note(.formatShape, .warning, format, source, message)
    }

    func result() -> LinkExtraction {
        var notes = notes
        if droppedLinks > 0, let firstDropped {
            notes.append(ShapeNote(
                kind: .limitReached, severity: .warning, format: nil, source: firstDropped,
                message: "\(droppedLinks) of the \(links.count + droppedLinks) links in the response \(droppedLinks == 1 ? "was" : "were") not extracted (--max-links \(limits.maximumLinks)): raise --max-links"))
        }
        if droppedNotes > 0 {
            notes.append(ShapeNote(
                kind: .limitReached, severity: .note, format: nil, source: .jsonPointer(""),
                message: "\(droppedNotes) more notes were left out (limit \(limits.maximumNotes))"))
        }
        return LinkExtraction(links: links, notes: notes, formats: formats, droppedLinks: droppedLinks)
    }
}
