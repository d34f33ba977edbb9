import Foundation

/// Reading the template (the cursor's moves) and the pieces of a tag (names, transforms,
/// delimiters, pragmas, comments), as swift-mustache 2.1.1's parser reads them.
extension TemplateScanner {
    mutating func advance() {
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

    mutating func skip(while predicate: (Character) -> Bool) {
        while !reachedEnd, predicate(text[cursor.index]) { advance() }
    }

    mutating func read(while characters: Set<Character>) -> String {
        let start = cursor.index
        while !reachedEnd, characters.contains(text[cursor.index]) { advance() }
        return String(text[start..<cursor.index])
    }

    /// `Parser.read(string:)`: compares the next `string.count` characters; throws when fewer remain.
    mutating func read(string: String) throws(Overflow) -> Bool {
        let count = string.count
        guard count > 0 else { return true }
        guard let end = text.index(cursor.index, offsetBy: count, limitedBy: text.endIndex) else { throw Overflow() }
        guard text[cursor.index..<end] == string else { return false }
        for _ in 0..<count { advance() }
        return true
    }

    /// `Parser.read(_ char:)`: throws at the end.
    mutating func read(character: Character) throws(Overflow) -> Bool {
        guard !reachedEnd else { throw Overflow() }
        guard text[cursor.index] == character else { return false }
        advance()
        return true
    }

    // MARK: - Pieces of the parser

    func addAmplification(_ frame: inout Frame) {
        frame.amplification += frame.indentation
    }

    func record(_ tags: inout [Tag], _ kind: TagKind, _ name: String, _ transforms: [String], _ location: Location) {
        guard recordTags else { return }
        tags.append(Tag(kind: kind, name: name, transforms: transforms, location: location))
    }

    func push(_ frames: inout [Frame], _ frame: Frame) throws(Failure) {
        guard frames.count <= limits.maximumDepth else {
            throw Failure(location: frame.openLocation, message: "sections are nested more than \(limits.maximumDepth) levels deep")
        }
        frames.append(frame)
    }

    func describe(_ kind: TagKind?) -> String {
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
    mutating func isStandalone(_ state: State) -> Bool {
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

    mutating func expectEndDelimiter(_ state: State, tagStart: Location, after name: String) throws(Failure) {
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
    mutating func parseName(_ state: State, tagStart: Location) throws(Failure) -> (String, [String]) {
        let name = try readDelimitedName(state, tagStart: tagStart, characters: Self.sectionNameCharacters, kind: "tag name")
        guard name.contains(where: { $0 == "(" || $0 == ")" }) else { return (name, []) }
        return try Self.parseTransforms(name, tagStart: tagStart, limits: limits)
    }

    /// swift-mustache's transform syntax `t2(t1(name))`, iteratively.
    static func parseTransforms(_ text: String, tagStart: Location, limits: Limits) throws(Failure) -> (String, [String]) {
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
    mutating func parsePartialName(_ state: State, tagStart: Location) throws(Failure) -> String {
        try readDelimitedName(state, tagStart: tagStart, characters: Self.partialNameCharacters, kind: "partial name")
    }

    /// A name of `characters` between optional whitespace, bounded in length, then the end delimiter.
    mutating func readDelimitedName(
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
    mutating func skipComment(until delimiter: String) -> Bool {
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
    mutating func parseSetDelimiter(_ state: State, tagStart: Location) throws(Failure) -> State {
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
    mutating func parsePragma(_ state: State, tagStart: Location) throws(Failure) -> String {
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
    func count(in text: String) -> Int { text.utf8.distance(from: lowerBound, to: upperBound) }
}
