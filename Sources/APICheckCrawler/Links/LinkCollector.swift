import APICheckModel

/// The state of one extraction: links and notes so far, under the extractor's limits.
struct LinkCollector {
    let limits: LinkExtractor.Limits
    /// The response URL: context and base of every body link.
    let base: String
    private(set) var links: [Link] = []
    private(set) var notes: [ShapeNote] = []
    private(set) var formats: [LinkFormat] = []
    /// Set once the link limit is reached; extraction stops adding and walking.
    private(set) var isFull = false
    private var droppedNotes = 0

    init(limits: LinkExtractor.Limits, base: String) {
        self.limits = limits
        self.base = base
    }

    mutating func add(_ link: Link) {
        guard !isFull else { return }
        guard links.count < limits.maximumLinks else {
            isFull = true
            note(
                .limitReached, .warning, nil, link.source,
                "more than \(limits.maximumLinks) links in one response: links from here on were not extracted")
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
        if droppedNotes > 0 {
            notes.append(ShapeNote(
                kind: .limitReached, severity: .note, format: nil, source: .jsonPointer(""),
                message: "\(droppedNotes) more notes were left out (limit \(limits.maximumNotes))"))
        }
        return LinkExtraction(links: links, notes: notes, formats: formats, isTruncated: isFull)
    }
}
