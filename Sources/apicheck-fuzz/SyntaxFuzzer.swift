import APICheckCrawler
import APICheckHypermedia
import APICheckModel
import Foundation

/// `media-type` and `uri-template`: the two small grammars the crawler reads from documents.
enum SyntaxFuzzer {
    /// The input is a `Content-Type` value (bit-repaired to UTF-8).
    ///
    /// Invariants: an error's offset lies inside the text; a parsed type's names are lower-case
    /// tokens, its description parses back to an equal type with the same problems, it matches
    /// itself; `problems(in:)` of text that does not parse is exactly the parse error.
    static func runMediaType(_ data: [UInt8]) {
        let text = String(decoding: data, as: UTF8.self)
        let mediaType: MediaType
        do {
            mediaType = try MediaType(parsing: text)
        } catch {
            if let offset = error.offset {
                FuzzCheck.require(offset >= 0 && offset <= text.utf8.count, "problem offset \(offset) outside the text: \(error)")
            }
            FuzzCheck.require(!error.message.isEmpty, "a problem without a message")
            FuzzCheck.require(MediaType.problems(in: text) == [error], "problems(in:) differs from the parse error")
            return
        }
        FuzzCheck.require(!mediaType.type.isEmpty && !mediaType.subtype.isEmpty, "an empty type or subtype: \(mediaType)")
        FuzzCheck.require(mediaType.essence == mediaType.essence.lowercased(), "the essence is not lower-cased: \(mediaType.essence)")
        FuzzCheck.require(mediaType.matches(mediaType), "a type does not match itself: \(mediaType)")
        _ = (mediaType.isJSON, mediaType.isXML, mediaType.suffix, mediaType.canonicalEssence)
        let description = mediaType.description
        guard description.utf8.count <= MediaType.maximumLength else { return }
        do {
            let again = try MediaType(parsing: description)
            FuzzCheck.require(again == mediaType, "'\(description)' parses to \(again), not the type it describes")
        } catch {
            FuzzCheck.fail("the description '\(description)' of '\(text)' does not parse: \(error)")
        }
        let kinds = { (text: String) in MediaType.problems(in: text).map(\.kind) }
        FuzzCheck.require(kinds(text) == kinds(description), "'\(text)' and its description '\(description)' have different problems")
    }

    /// Line 1 is the template; each further line a value: `name=text`, `name[]=a,b` (a list) or
    /// `name{}=k=v,k2=v2` (an associative array). The first byte of line 1 is the template.
    ///
    /// Invariants: an error's offset lies inside the template; a template parses again to itself;
    /// an expansion is bounded, is a valid URI reference (every `%` a triplet, no character a URI
    /// refuses), and only fails for a prefix on a composite value or its length; `{name}` alone
    /// expands to text that percent-decodes back to the value; with every variable defined none is
    /// missing.
    static func runURITemplate(_ data: [UInt8]) {
        let lines = FuzzInput.lines(data[...])
        let source = lines.first ?? ""
        var values: [String: URITemplate.Value] = [:]
        for line in lines.dropFirst().prefix(32) {
            guard let equals = line.firstIndex(of: "=") else { continue }
            var name = String(line[..<equals])
            let text = String(line[line.index(after: equals)...])
            if name.hasSuffix("[]") {
                name.removeLast(2)
                values[name] = .list(text.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
            } else if name.hasSuffix("{}") {
                name.removeLast(2)
                values[name] = .associativeArray(text.split(separator: ",").map { pair in
                    let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    return .init(String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
                })
            } else {
                values[name] = .string(text)
            }
        }

        let template: URITemplate
        do {
            template = try URITemplate(source)
        } catch {
            FuzzCheck.require(error.isSyntaxError, "parsing failed with an expansion error: \(error)")
            if let offset = error.offset, source.utf8.count <= URITemplate.defaultMaximumLength {
                FuzzCheck.require(offset >= 0 && offset <= source.unicodeScalars.count, "error offset \(offset) outside the template: \(error)")
            }
            return
        }
        FuzzCheck.require((try? URITemplate(source)) == template, "the template parses differently the second time")
        for variable in template.variables {
            FuzzCheck.require(!variable.name.isEmpty, "a variable without a name")
            if let prefix = variable.prefix { FuzzCheck.require((1...9999).contains(prefix), "prefix \(prefix) outside 1...9999") }
        }

        let limit = 4096
        for candidate in [values, [:]] {
            do {
                let expanded = try template.expand(candidate, maximumLength: limit)
                FuzzCheck.require(expanded.utf8.count <= limit, "an expansion of \(expanded.utf8.count) bytes over the limit")
                if let problem = URLResolution.problem(in: expanded) {
                    FuzzCheck.fail("the expansion '\(expanded)' is not a URI reference: \(problem)")
                }
                FuzzCheck.require(!expanded.utf8.contains { $0 >= 0x80 }, "the expansion '\(expanded)' holds non-ASCII bytes")
            } catch {
                FuzzCheck.require(!error.isSyntaxError, "expansion failed with a syntax error: \(error)")
            }
        }
        var defined = values
        for name in template.variableNames where values[name]?.isDefined != true { defined[name] = "v" }
        FuzzCheck.require(template.missingVariables(for: defined).isEmpty, "variables missing although all are defined")

        // Simple string expansion percent-encodes, so it decodes back to the value.
        for case (let name, .string(let value)) in values where !value.isEmpty {
            guard let single = try? URITemplate("{\(name)}"), single.variables.first?.name == name, single.variables.first?.explode == false,
                single.variables.first?.prefix == nil, let expanded = try? single.expand(values, maximumLength: 1 << 20)
            else { continue }
            FuzzCheck.require(expanded.removingPercentEncoding == value, "{\(name)} expands to '\(expanded)', which does not decode to '\(value)'")
        }
    }
}
