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
    private static let spaceOrTab: Set<Character> = [" ", "\t"]

    // MARK: - Cursor

    private struct Cursor {
        var index: String.Index
        /// Characters from the start of the template.
        var offset = 0
        var line = 1
        var column = 1
        /// The character before `index`, for "are we at a line start".
        var previous: Character?

        var location: Location { Location(line: line, column: column) }
    }

    private struct Overflow: Error {}

    private let text: String
    private let limits: Limits
    private let defaultContentType: String
    private let recordTags: Bool
    private var cursor: Cursor
    /// Parser work: each costly read (a comparison with a delimiter) costs the characters left in its chunk.
    private var costlyReads = 0
    private var costlyReadOffsets = 0

    private mutating func noteCostlyRead() {
        costlyReads += 1
        costlyReadOffsets += cursor.offset
    }

    private init(text: String, defaultContentType: String, limits: Limits, recordTags: Bool) {
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

    private var reachedEnd: Bool { cursor.index == text.endIndex }

    /// The current character, or `"\0"` at the end (as swift-mustache's `current()`).
    private var current: Character { reachedEnd ? "\0" : text[cursor.index] }

    private mutating func advance() {
        let character = text[cursor.index]
        cursor.index = text.index(after: cursor.index)
        cursor.offset += 1
        if character.isNewline {
            cursor.line += 1
            cursor.column = 1
        } else {
            cursor.column += 1
        }
        cursor.previous = character
    }

    private mutating func skip(while predicate: (Character) -> Bool) {
        while !reachedEnd, predicate(text[cursor.index]) { advance() }
    }

    private mutating func read(while characters: Set<Character>) -> String {
        let start = cursor.index
        while !reachedEnd, characters.contains(text[cursor.index]) { advance() }
        return String(text[start..<cursor.index])
    }

    /// `Parser.read(string:)`: compares the next `string.count` characters; throws when fewer remain.
    private mutating func read(string: String) throws(Overflow) -> Bool {
        let count = string.count
        guard count > 0 else { return true }
        guard let end = text.index(cursor.index, offsetBy: count, limitedBy: text.endIndex) else { throw Overflow() }
        guard text[cursor.index..<end] == string else { return false }
        for _ in 0..<count { advance() }
        return true
    }

    /// `Parser.read(_ char:)`: throws at the end.
    private mutating func read(character: Character) throws(Overflow) -> Bool {
        guard !reachedEnd else { throw Overflow() }
        guard text[cursor.index] == character else { return false }
        advance()
        return true
    }

    // MARK: - Parser state, as swift-mustache's `ParserState`

    private struct State {
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
    private struct Frame {
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

    private mutating func run() throws(Failure) -> Result {
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

    // MARK: - Pieces of the parser

    private func addAmplification(_ frame: inout Frame) {
        frame.amplification += frame.indentation
    }

    private func record(_ tags: inout [Tag], _ kind: TagKind, _ name: String, _ transforms: [String], _ location: Location) {
        guard recordTags else { return }
        tags.append(Tag(kind: kind, name: name, transforms: transforms, location: location))
    }

    private func push(_ frames: inout [Frame], _ frame: Frame) throws(Failure) {
        guard frames.count <= limits.maximumDepth else {
            throw Failure(location: frame.openLocation, message: "sections are nested more than \(limits.maximumDepth) levels deep")
        }
        frames.append(frame)
    }

    private func describe(_ kind: TagKind?) -> String {
        switch kind {
        case .invertedSection: "inverted section"
        case .inheritingPartial: "partial"
        case .block: "block"
        default: "section"
        }
    }

    static func tagText(_ name: String, _ transforms: [String]) -> String {
        transforms.reversed().reduce(name) { inner, transform in "\(transform)(\(inner))" }
    }

    /// `items` for `request.json.items`, `.` for `.`.
    static func lastSegment(of name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? "."
    }

    /// `isStandalone`: at a line start, the rest of the line blank; consumes the rest and the break.
    private mutating func isStandalone(_ state: State) -> Bool {
        guard state.newLine else { return false }
        if reachedEnd { return true }
        let saved = cursor
        skip { Self.spaceOrTab.contains($0) }
        if current.isNewline {
            advance()
            return true
        }
        cursor = saved
        return false
    }

    private mutating func expectEndDelimiter(_ state: State, tagStart: Location, after name: String) throws(Failure) {
        let location = cursor.location
        let matched: Bool
        do {
            matched = try read(string: state.endDelimiter)
        } catch {
            throw Failure(location: tagStart, message: "tag is never closed: expected '\(state.endDelimiter)'")
        }
        guard matched else {
            let found = current
            let what = found.isNewline ? "a line break" : "'\(found)'"
            let subject = name.isEmpty ? "in tag" : "after '\(name)'"
            throw Failure(location: location, message: "unexpected \(what) \(subject): expected '\(state.endDelimiter)' (names use letters, digits and . - _ ? * ( ))")
        }
    }

    /// `parseName`: name characters between optional whitespace, the end delimiter, then transforms.
    private mutating func parseName(_ state: State, tagStart: Location) throws(Failure) -> (String, [String]) {
        let name = try readDelimitedName(state, tagStart: tagStart, characters: Self.sectionNameCharacters, kind: "tag name")
        guard name.contains(where: { $0 == "(" || $0 == ")" }) else { return (name, []) }
        return try Self.parseTransforms(name, tagStart: tagStart, limits: limits)
    }

    /// swift-mustache's transform syntax `t2(t1(name))`, iteratively.
    private static func parseTransforms(_ text: String, tagStart: Location, limits: Limits) throws(Failure) -> (String, [String]) {
        let malformed = Failure(location: tagStart, message: "malformed transform '\(text)': expected 'transform(name)'")
        guard text.count(where: { $0 == "(" }) <= limits.maximumTransforms else {
            throw Failure(location: tagStart, message: "more than \(limits.maximumTransforms) nested transforms in '\(text)'")
        }
        var characters = text[...]
        func readName() -> Substring {
            let name = characters.prefix { nameCharactersWithoutBrackets.contains($0) }
            characters = characters.dropFirst(name.count)
            return name
        }
        var transforms = [String(readName())]
        guard characters.first == "(" else { throw malformed }
        characters = characters.dropFirst()
        while true {
            let name = readName()
            switch characters.first {
            case ")":
                characters = characters.dropFirst()
                let closing = characters.prefix { $0 == ")" }.count
                characters = characters.dropFirst(closing)
                guard closing + 1 == transforms.count, characters.isEmpty else { throw malformed }
                return (String(name), transforms)
            case "(":
                characters = characters.dropFirst()
                transforms.append(String(name))
            default:
                throw malformed
            }
        }
    }

    /// `parsePartialName`.
    private mutating func parsePartialName(_ state: State, tagStart: Location) throws(Failure) -> String {
        try readDelimitedName(state, tagStart: tagStart, characters: Self.partialNameCharacters, kind: "partial name")
    }

    /// A name of `characters` between optional whitespace, bounded in length, then the end delimiter.
    private mutating func readDelimitedName(
        _ state: State, tagStart: Location, characters: Set<Character>, kind: String
    ) throws(Failure) -> String {
        skip { $0.isWhitespace }
        let name = read(while: characters)
        guard name.count <= limits.maximumNameLength else {
            throw Failure(location: tagStart, message: "\(kind) longer than \(limits.maximumNameLength) characters")
        }
        skip { $0.isWhitespace }
        noteCostlyRead()
        try expectEndDelimiter(state, tagStart: tagStart, after: name)
        return name
    }

    /// `Parser.read(untilString:throwOnOverflow:skipToEnd:)` for comments, with its matching as is: after
    /// a partial match fails, the failing character is not tried as the start of a new match.
    private mutating func skipComment(until delimiter: String) -> Bool {
        let pattern = Array(delimiter)
        guard !pattern.isEmpty else { return true }
        let saved = cursor
        var matched = 0
        while !reachedEnd {
            if text[cursor.index] == pattern[matched] {
                matched += 1
                if matched == pattern.count {
                    advance()
                    return true
                }
            } else {
                matched = 0
            }
            advance()
        }
        cursor = saved
        return false
    }

    /// `parserSetDelimiter`.
    private mutating func parseSetDelimiter(_ state: State, tagStart: Location) throws(Failure) -> State {
        let invalid = Failure(location: tagStart, message: "invalid set-delimiter tag: expected '\(state.startDelimiter)=<start> <end>=\(state.endDelimiter)'")
        skip { $0.isWhitespace }
        let startIndex = cursor.index
        skip { !$0.isWhitespace }
        guard !reachedEnd else { throw invalid }
        let start = String(text[startIndex..<cursor.index])
        skip { $0.isWhitespace }
        let endIndex = cursor.index
        skip { $0 != "=" && !$0.isWhitespace }
        guard !reachedEnd else { throw invalid }
        let end = String(text[endIndex..<cursor.index])
        skip { $0.isWhitespace }
        do {
            guard try read(character: "=") else { throw invalid }
            noteCostlyRead()
            guard try read(string: state.endDelimiter) else { throw invalid }
        } catch is Overflow {
            throw invalid
        } catch {
            throw invalid
        }
        guard !start.isEmpty, !end.isEmpty else { throw invalid }
        guard !(start + end).unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw Failure(location: tagStart, message: "delimiters cannot contain control characters")
        }
        guard start.count <= 32, end.count <= 32 else {
            throw Failure(location: tagStart, message: "delimiters longer than 32 characters")
        }
        var state = state
        state.startDelimiter = start
        state.endDelimiter = end
        state.isPartialDefinitionTopLevel = false
        return state
    }

    /// `readConfigVariable`: only `CONTENT_TYPE` exists.
    private mutating func parsePragma(_ state: State, tagStart: Location) throws(Failure) -> String {
        let invalid = Failure(location: tagStart, message: "invalid pragma: expected '\(state.startDelimiter)%CONTENT_TYPE: <type>\(state.endDelimiter)'")
        skip { $0.isWhitespace }
        let variable = read(while: Self.nameCharactersWithoutBrackets)
        skip { $0.isWhitespace }
        do {
            guard try read(character: ":") else { throw invalid }
        } catch {
            throw invalid
        }
        skip { $0.isWhitespace }
        let value = read(while: Self.nameCharactersWithoutBrackets)
        skip { $0.isWhitespace }
        noteCostlyRead()
        do {
            guard try read(string: state.endDelimiter) else { throw invalid }
        } catch {
            throw invalid
        }
        guard !variable.isEmpty, !value.isEmpty else { throw invalid }
        guard variable == "CONTENT_TYPE" else {
            throw Failure(location: tagStart, message: "unknown pragma '\(variable)': only CONTENT_TYPE exists")
        }
        guard TemplateContentType.known.contains(value) else {
            throw Failure(location: tagStart, message: "unknown content type '\(value)': use \(TemplateContentType.known.sorted().joined(separator: ", "))")
        }
        return value
    }
}

extension Range where Bound == String.Index {
    fileprivate func count(in text: String) -> Int { text.utf8.distance(from: lowerBound, to: upperBound) }
}
