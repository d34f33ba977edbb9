/// A step-for-step mirror of swift-mustache 2.1.1's template parser (`Template+Parser.swift`) that
/// builds no tokens but records what compiling and bounding a template needs:
///
/// - **errors with the position of their cause**: swift-mustache reports an unclosed section at the
///   end of the file; we report the opening tag. The scanner also refuses what would crash or stall
///   the parser: sections nested deeper than ``Limits/maximumDepth`` (it recurses per section) and
///   names with more than ``Limits/maximumTransforms`` nested transforms (it recurses per `(`).
/// - **chunks**: swift-mustache's parser computes the distance to the end of the template (O(n) on a
///   `String`) at every `{` and every tag, so one large template compiles in quadratic time (a
///   160 KB JSON template takes seconds). A template is therefore compiled as consecutive chunks,
///   cut at top-level line starts where the parser's state is the same as at the start of a template
///   (no open section, at a line start); the delimiters and content type in effect are restated in a
///   prefix. The rendered chunks concatenate to exactly what the whole template would render.
/// - **costs** that bound rendering: the bytes a section body can emit per iteration, and the
///   template's own static output (including the indentation block expansions add).
///
/// Positions are 1-based lines and columns counted in `Character`s, a line break being any
/// `Character.isNewline` (as swift-mustache counts them).
struct TemplateScanner {
    /// The swift-mustache release whose parser this mirrors; Package.swift pins it `exact:`, and a
    /// test fails if the two disagree, so that an upgrade is a deliberate change re-checked by
    /// `TemplateChunkingTests` and never a silent difference in output.
    static let mirroredMustacheVersion = "2.1.1"

    struct Limits {
        /// Sections (`#`, `^`, `$`, `<`) nested inside each other.
        var maximumDepth = 48
        /// Characters in one tag name, transforms included.
        var maximumNameLength = 1024
        /// `(` in one tag name (`uppercased(reversed(x))` has 2).
        var maximumTransforms = 16
        /// Characters per chunk before the scanner looks for the next place to cut.
        var chunkTarget = 512
        /// Bytes that section bodies add up to (swift-mustache keeps a copy of each body's text).
        var maximumSectionBytes = 64 << 20
        /// Estimated character steps swift-mustache's parser spends on all chunks (~1 ns each).
        var maximumCompileCost = 1_000_000_000
    }

    struct Location: Hashable {
        var line: Int
        var column: Int
    }

    /// A problem that keeps the template from compiling, at the position of its cause.
    struct Failure: Error {
        var location: Location
        var message: String
    }

    enum TagKind {
        case variable, unescapedVariable, section, invertedSection, close, comment, partial, inheritingPartial, block,
            setDelimiter, pragma
    }

    /// One tag, for lint.
    struct Tag {
        var kind: TagKind
        var name: String
        var transforms: [String]
        var location: Location
    }

    /// A piece of the template compiled on its own.
    struct Chunk {
        var range: Range<String.Index>
        /// The template line the chunk starts on.
        var firstLine: Int
        var startDelimiter: String
        var endDelimiter: String
        var contentType: String
    }

    struct Result {
        var chunks: [Chunk]
        /// Every tag in order, when the scan was asked to record them.
        var tags: [Tag]
        /// For a `#` section name's last segment (`items` in `request.json.items`): the most bytes one
        /// iteration of such a section can emit by itself.
        var sectionCosts: [String: Int]
        /// The most any section's iteration can emit by itself.
        var maximumSectionCost: Int
        /// What the template emits outside of iterations and values: its size plus block indentation.
        var staticBytes: Int
        /// Estimated parser work over all chunks, in character steps.
        var compileCost: Int
        /// The first block expansion that indents its lines, if any (they multiply the output).
        var firstIndentingBlock: Location?
    }

    static let sectionNameCharacters = Set<Character>("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?()*")
    static let nameCharactersWithoutBrackets = Set<Character>("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*")
    static let partialNameCharacters = Set<Character>("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?()*/")
    static let spaceOrTab: Set<Character> = [" ", "\t"]

    // MARK: - Cursor

    struct Cursor {
        var index: String.Index
        /// Characters from the start of the template.
        var offset = 0
        var line = 1
        var column = 1
        /// The character before `index`, for "are we at a line start".
        var previous: Character?

        var location: Location { Location(line: line, column: column) }
    }

    struct Overflow: Error {}

    let text: String
    let limits: Limits
    let defaultContentType: String
    let recordTags: Bool
    var cursor: Cursor
    /// Parser work: each costly read (a comparison with a delimiter) costs the characters left in its chunk.
    var costlyReads = 0
    var costlyReadOffsets = 0

    mutating func noteCostlyRead() {
        costlyReads += 1
        costlyReadOffsets += cursor.offset
    }

    init(text: String, defaultContentType: String, limits: Limits, recordTags: Bool) {
        self.text = text
        self.limits = limits
        self.defaultContentType = defaultContentType
        self.recordTags = recordTags
        self.cursor = Cursor(index: text.startIndex)
    }

    /// Scans a whole template.
    static func scan(_ text: String, defaultContentType: String, limits: Limits = Limits(), recordTags: Bool = false) throws(Failure) -> Result {
        var scanner = TemplateScanner(text: text, defaultContentType: defaultContentType, limits: limits, recordTags: recordTags)
        return try scanner.run()
    }

    var reachedEnd: Bool { cursor.index == text.endIndex }

    /// The current character, or `"\0"` at the end (as swift-mustache's `current()`).
    var current: Character { reachedEnd ? "\0" : text[cursor.index] }

    // MARK: - Parser state, as swift-mustache's `ParserState`

    struct State {
        var sectionName: String?
        var sectionTransforms: [String] = []
        var newLine = true
        var isPartialDefinition = false
        var isPartialDefinitionTopLevel = false
        var startDelimiter = "{{"
        var endDelimiter = "}}"

        func withSectionName(_ name: String, newLine: Bool, transforms: [String] = []) -> State {
            var state = self
            state.sectionName = name
            state.sectionTransforms = transforms
            state.isPartialDefinitionTopLevel = false
            if !newLine { state.newLine = false }
            return state
        }

        func withInheritancePartial(_ name: String) -> State {
            var state = self
            state.sectionName = name
            state.sectionTransforms = []
            state.newLine = true
            state.isPartialDefinition = true
            state.isPartialDefinitionTopLevel = true
            return state
        }
    }

    /// One level of the parser's recursion: the template, or an open section.
    struct Frame {
        var state: State
        var kind: TagKind?
        var name: String
        var openLocation: Location
        /// The opening tag's `setNewLine`, which the parent takes over when the section closes.
        var openSetNewLine: Bool
        var bodyStart: String.Index
        /// Indentation (bytes) that block expansions add after each line break inside this frame.
        var indentation: Int
        /// Bytes of indentation emitted inside this frame, nested frames included.
        var amplification = 0
        /// swift-mustache's `whiteSpaceBefore`, as a byte count.
        var whiteSpaceBefore = 0
    }

    // MARK: - Scan

    mutating func run() throws(Failure) -> Result {
        var frames = [
            Frame(state: State(), kind: nil, name: "", openLocation: cursor.location, openSetNewLine: false,
                  bodyStart: text.startIndex, indentation: 0)
        ]
        var tags: [Tag] = []
        var chunks: [Chunk] = []
        var sectionCosts: [String: Int] = [:]
        var maximumSectionCost = 0
        var sectionBytes = 0
        var topContentType = defaultContentType
        // The chunk being built.
        var chunkStart = cursor
        var chunkState = (start: "{{", end: "}}", contentType: defaultContentType)
        var lastDelimiterStartOffset = -(1 << 40)
        var compileCost = 0
        var firstIndentingBlock: Location?

        func closeChunk(at end: Cursor, _ scanner: inout TemplateScanner) {
            chunks.append(Chunk(range: chunkStart.index..<end.index, firstLine: chunkStart.line, startDelimiter: chunkState.start,
                                endDelimiter: chunkState.end, contentType: chunkState.contentType))
            compileCost += scanner.costlyReads * (end.offset + 40) - scanner.costlyReadOffsets  // 40: the prefix lines
            scanner.costlyReads = 0
            scanner.costlyReadOffsets = 0
        }

        func fail(_ message: String, at location: Location) -> Failure {
            Failure(location: location, message: message)
        }

        while true {
            let top = frames.count - 1
            if reachedEnd {
                guard top == 0 else {
                    let frame = frames[top]
                    throw fail("\(describe(frame.kind)) '\(frame.name)' is never closed: expected '\(frame.state.startDelimiter)/\(frame.name)\(frame.state.endDelimiter)'", at: frame.openLocation)
                }
                break
            }
            // A place to cut: top level, at a line start, the parser expecting a new line. A delimiter
            // start just before the cut must still have room to be compared with the whole delimiter.
            if top == 0, frames[0].state.newLine, cursor.previous == "\n" || cursor.previous == "\r\n",
                cursor.offset - chunkStart.offset >= limits.chunkTarget,
                cursor.offset - lastDelimiterStartOffset >= frames[0].state.startDelimiter.count
            {
                let end = cursor
                closeChunk(at: end, &self)
                chunkStart = cursor
                chunkState = (frames[0].state.startDelimiter, frames[0].state.endDelimiter, topContentType)
            }

            var state = frames[top].state
            if state.newLine {
                let start = cursor.index
                skip { Self.spaceOrTab.contains($0) }
                frames[top].whiteSpaceBefore = text.utf8.distance(from: start, to: cursor.index)
            }
            // readUntilDelimiterOrNewline
            let textStart = cursor.index
            var textEnd = cursor.index
            let delimiterFirst = state.startDelimiter.first!
            var tagStart = cursor.location
            var tagStartIndex = cursor.index
            while !reachedEnd {
                let character = text[cursor.index]
                if character == "\n" || character == "\r\n" {
                    textEnd = cursor.index
                    break
                }
                if character == delimiterFirst {
                    textEnd = cursor.index
                    tagStart = cursor.location
                    tagStartIndex = cursor.index
                    let startOffset = cursor.offset
                    lastDelimiterStartOffset = startOffset
                    noteCostlyRead()
                    let matched: Bool
                    do {
                        matched = try read(string: state.startDelimiter)
                    } catch {
                        throw fail("'\(character)' at the end of the template starts an incomplete '\(state.startDelimiter)'", at: tagStart)
                    }
                    if matched { break }
                    advance()
                    textEnd = cursor.index
                    continue
                }
                advance()
                textEnd = cursor.index
            }
            let hasText = textStart < textEnd
            if current.isNewline {
                // A line break ends the text (after a delimiter too: `{{` before a line break is dropped).
                addAmplification(&frames[top])
                state.newLine = true
                frames[top].state = state
                advance()
                continue
            }
            if hasText {
                frames[top].whiteSpaceBefore = 0
                state.newLine = false
            }
            if reachedEnd {
                frames[top].state = state
                continue  // ends the loop above, checking for open sections
            }
            addAmplification(&frames[top])
            var setNewLine = false
            let kindCharacter = current
            switch kindCharacter {
            case "#", "^":
                advance()
                let (name, transforms) = try parseName(state, tagStart: tagStart)
                let kind: TagKind = kindCharacter == "#" ? .section : .invertedSection
                record(&tags, kind, name, transforms, tagStart)
                if isStandalone(state) {
                    setNewLine = true
                } else if frames[top].whiteSpaceBefore > 0 {
                    frames[top].whiteSpaceBefore = 0
                }
                frames[top].state = state
                try push(&frames, Frame(
                    state: state.withSectionName(name, newLine: setNewLine, transforms: transforms), kind: kind,
                    name: Self.tagText(name, transforms), openLocation: tagStart,
                    openSetNewLine: setNewLine, bodyStart: cursor.index, indentation: frames[top].indentation
                ))
                continue

            case "/":
                // swift-mustache records the body as ending two characters before this point, which
                // assumes a two-character delimiter: with a one-character one and an empty body, that
                // end is before the body's start and its parser traps (2.1.1).
                let recordedBodyEnd = text.index(cursor.index, offsetBy: -2, limitedBy: text.startIndex)
                advance()
                let nameLocation = cursor.location
                let (name, transforms) = try parseName(state, tagStart: tagStart)
                record(&tags, .close, name, transforms, tagStart)
                guard name == state.sectionName, transforms == state.sectionTransforms else {
                    let written = "\(state.startDelimiter)/\(Self.tagText(name, transforms))\(state.endDelimiter)"
                    if top == 0 {
                        throw fail("'\(written)' closes a section that is not open", at: nameLocation)
                    }
                    let frame = frames[top]
                    throw fail("'\(written)' does not close \(describe(frame.kind)) '\(frame.name)' opened at line \(frame.openLocation.line), column \(frame.openLocation.column)", at: nameLocation)
                }
                if top > 0, recordedBodyEnd.map({ $0 < frames[top].bodyStart }) ?? true {
                    throw fail("an empty \(describe(frames[top].kind)) cannot be closed with a one-character delimiter ('\(state.startDelimiter)'); put a comment or a space inside, or use longer delimiters", at: tagStart)
                }
                let bodyEnd = tagStartIndex
                _ = isStandalone(state)
                // Pop: the parent continues with the opening tag's setNewLine.
                let frame = frames.removeLast()
                let bodyBytes = text.utf8.distance(from: frame.bodyStart, to: max(frame.bodyStart, bodyEnd))
                sectionBytes += bodyBytes
                if sectionBytes > limits.maximumSectionBytes {
                    throw fail("section bodies add up to more than \(limits.maximumSectionBytes >> 20) MiB; nest fewer large sections", at: frame.openLocation)
                }
                frames[top - 1].amplification += frame.amplification
                if frame.kind == .section {
                    let cost = max(1, bodyBytes + frame.amplification)
                    let key = Self.lastSegment(of: name)
                    sectionCosts[key] = max(sectionCosts[key] ?? 0, cost)
                    maximumSectionCost = max(maximumSectionCost, cost)
                }
                frames[top - 1].state.newLine = frame.openSetNewLine
                continue

            case "!":
                advance()
                // `Parser.read(untilString:skipToEnd:)`, including its naive matching.
                noteCostlyRead()
                guard skipComment(until: state.endDelimiter) else {
                    throw fail("comment is never closed: expected '\(state.endDelimiter)'", at: tagStart)
                }
                record(&tags, .comment, "", [], tagStart)
                setNewLine = isStandalone(state)

            case "{":
                frames[top].whiteSpaceBefore = 0
                advance()
                let (name, transforms) = try parseName(state, tagStart: tagStart)
                let closed: Bool
                do {
                    closed = try read(character: "}")
                } catch {
                    throw fail("'\(state.startDelimiter){' is never closed: expected '}\(state.endDelimiter)'", at: tagStart)
                }
                guard closed else {
                    throw fail("'\(state.startDelimiter){' is closed by '\(state.endDelimiter)': expected '}\(state.endDelimiter)'", at: tagStart)
                }
                record(&tags, .unescapedVariable, name, transforms, tagStart)

            case "&":
                frames[top].whiteSpaceBefore = 0
                advance()
                let (name, transforms) = try parseName(state, tagStart: tagStart)
                record(&tags, .unescapedVariable, name, transforms, tagStart)

            case ">":
                advance()
                skip { $0.isWhitespace }
                if current == "*" { advance() }
                let name = try parsePartialName(state, tagStart: tagStart)
                record(&tags, .partial, name, [], tagStart)
                setNewLine = isStandalone(state)
                frames[top].whiteSpaceBefore = 0

            case "<":
                advance()
                skip { $0.isWhitespace }
                let name = try parsePartialName(state, tagStart: tagStart)
                record(&tags, .inheritingPartial, name, [], tagStart)
                if isStandalone(state) { setNewLine = true }
                frames[top].whiteSpaceBefore = 0
                frames[top].state = state
                try push(&frames, Frame(
                    state: state.withInheritancePartial(name), kind: .inheritingPartial, name: name,
                    openLocation: tagStart, openSetNewLine: setNewLine, bodyStart: cursor.index, indentation: frames[top].indentation
                ))
                continue

            case "$":
                advance()
                let (name, transforms) = try parseName(state, tagStart: tagStart)
                guard transforms.isEmpty else {
                    throw fail("a block '\(state.startDelimiter)$\(name)\(state.endDelimiter)' cannot have transforms", at: tagStart)
                }
                record(&tags, .block, name, [], tagStart)
                var indentation = frames[top].indentation
                if !state.isPartialDefinitionTopLevel {
                    indentation += frames[top].whiteSpaceBefore  // a block expansion indents its lines
                    if frames[top].whiteSpaceBefore > 0, firstIndentingBlock == nil { firstIndentingBlock = tagStart }
                }
                if isStandalone(state) { setNewLine = true }
                if !state.isPartialDefinitionTopLevel { frames[top].whiteSpaceBefore = 0 }
                frames[top].state = state
                try push(&frames, Frame(
                    state: state.withSectionName(name, newLine: setNewLine), kind: .block, name: name,
                    openLocation: tagStart, openSetNewLine: setNewLine, bodyStart: cursor.index, indentation: indentation
                ))
                continue

            case "=":
                advance()
                state = try parseSetDelimiter(state, tagStart: tagStart)
                record(&tags, .setDelimiter, "", [], tagStart)
                setNewLine = isStandalone(state)

            case "%":
                advance()
                let contentType = try parsePragma(state, tagStart: tagStart)
                record(&tags, .pragma, contentType, [], tagStart)
                if top == 0 { topContentType = contentType }
                setNewLine = isStandalone(state)

            default:
                frames[top].whiteSpaceBefore = 0
                let (name, transforms) = try parseName(state, tagStart: tagStart)
                record(&tags, .variable, name, transforms, tagStart)
            }
            state.newLine = setNewLine
            frames[top].state = state
        }
        let end = cursor
        closeChunk(at: end, &self)
        if compileCost > limits.maximumCompileCost {
            let largest = chunks.max { $0.range.count(in: text) < $1.range.count(in: text) }
            throw fail("the template is too complex for the Mustache compiler (a section or line of \(largest.map { text.utf8.distance(from: $0.range.lowerBound, to: $0.range.upperBound) } ?? 0) bytes full of tags and braces); split long lines and large sections", at: Location(line: largest?.firstLine ?? 1, column: 1))
        }
        return Result(
            chunks: chunks, tags: tags, sectionCosts: sectionCosts, maximumSectionCost: maximumSectionCost,
            staticBytes: text.utf8.count + frames[0].amplification, compileCost: compileCost,
            firstIndentingBlock: firstIndentingBlock
        )
    }
}
