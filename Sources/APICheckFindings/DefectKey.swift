import APICheckModel
import APICheckSpool
import Foundation

/// A body's JSON pointer with array indices as `*` (`/movies/3/year` → `/movies/*/year`), so
/// that one field wrong in every element is one defect.
enum BodySchemaPointer {
    static func shape(_ pointer: String) -> String {
        guard pointer.contains(where: \.isNumber) else { return pointer }
        return pointer.split(separator: "/", omittingEmptySubsequences: false).map { step in
            !step.isEmpty && step.allSatisfy({ $0.isASCII && $0.isNumber }) ? "*" : String(step)
        }.joined(separator: "/")
    }
}

/// What makes findings one defect.
struct DefectKey: Hashable {
    var rule: RuleID
    var problem: String
    var place: String

    init(_ finding: Finding) {
        rule = finding.rule
        switch finding.rule {
        case .typeSyntax:
            let side = finding.declaredType == finding.actual ? "declared" : "served"
            problem = "\(side) \(finding.actual ?? "")"
            place = ""
        case .typeMatches:
            problem = "\(finding.declaredType ?? finding.expected ?? "") | \(finding.servedType ?? "") | \(MessageTemplate.of(finding.message))"
            place = ""
        case .formatShape:
            problem = "\(finding.format ?? "") | \(MessageTemplate.of(finding.message))"
            // A member of the format the message names is the problem itself ('type' missing is
            // not 'id' missing); a name the API chose (a rel, an embedded key) is not.
            if let member = FormatShapeMember.named(in: finding.message) { problem += " | " + member }
            place = ""
        case .bodySchema:
            // One defect per schema keyword, body field (indices as *) and place in the API: a wrong
            // field in every movie is one defect, whatever the values.
            problem = "\(finding.expected ?? "") | \(BodySchemaPointer.shape(finding.sourcePointer ?? ""))"
            place = RelPath.shape(finding.relPath)
        case .openAPIOperation:
            // One defect per method and kind of path the document lacks.
            problem = finding.method
            place = TargetShape.of(finding.url)
        case .openAPIStatus, .openAPIContentType, .openAPIHeader:
            // `expected` starts with the operation (`GET /movies/{id}: …`): one defect per operation
            // and what was seen (500 and 503 are two problems).
            problem = "\(finding.expected ?? "") | \(finding.actual ?? "")"
            place = ""
        case .openAPIBody:
            // The operation and schema keyword (in `expected`) and the field with indices as *.
            problem = "\(finding.expected ?? "") | \(BodySchemaPointer.shape(finding.sourcePointer ?? ""))"
            place = ""
        case .crawlLimit:
            // One defect per limit, however many responses it cut short.
            problem = MessageTemplate.of(finding.message)
            place = ""
        case .linkResolves:
            // A status stays as it is (404 and 500 are different problems); a failure's wording is templated.
            let actual = finding.actual.map { $0.allSatisfy(\.isNumber) ? $0 : MessageTemplate.of($0) } ?? ""
            problem = "\(finding.method) | \(actual) | \(MessageTemplate.of(finding.message))"
            // A status is the target's own answer: every link to that kind of resource shows it,
            // whichever rel led there, so the place is the target's path with ids as placeholders.
            // A failure to get an answer (or an href that is not a URL) stays with the rel.
            place = TargetShape.isStatus(finding.actual) ? "target " + TargetShape.of(finding.url) : "rel " + (finding.rel ?? "")
        case .methodValid, .templateValid:
            problem = "\(finding.method) | \(MessageTemplate.of(finding.message))"
            place = "rel " + (finding.rel ?? "")
        case .duplicateRel:
            problem = "rel " + (finding.rel ?? "")
            place = RelPath.shape(finding.relPath)
        case .contentTypePresent, .selfConsistent:
            problem = MessageTemplate.of(finding.message)
            place = RelPath.shape(finding.relPath)
        case .driftStatus, .driftType, .driftLinks, .driftShape, .driftHeader:
            // The message is the fact (the pointer, rel, statuses or types): templating it would
            // merge different drifts into one.
            problem = finding.message
            place = RelPath.shape(finding.relPath)
        case .probeServerError, .probeResponseType, .probeAcceptsInvalid, .probeCreatedResolves:
            // One defect per affordance and failing field (or template variable): the values that
            // found it differ from seed to seed.
            problem = "\(finding.method) | \(finding.rel ?? "") | \(finding.probe?.field ?? "")"
            place = RelPath.shape(finding.relPath)
        case .driftCoverage:
            // One gap per kind of resource; the count in the message changes as the API grows.
            problem = "no stub"
            place = RelPath.shape(finding.relPath)
        }
    }

    var id: String {
        var input: [UInt8] = []
        for field in [rule.rawValue, problem, place] {
            input.append(contentsOf: Array(String(field.utf8.count).utf8))
            input.append(UInt8(ascii: ":"))
            input.append(contentsOf: Array(field.utf8))
        }
        return FNV1a.hexDigest(input)
    }
}

/// The member of a hypermedia format a `format-shape` message is about, when the message's
/// wording is shared by several members: `the JSON:API resource object has no string 'type'`
/// and `… 'id'` are two problems with two fixes, and `'title' must be a string` is not `'type'
/// must be a string`. Names the API chose (`rel 'books' is a bare string href`) are not members:
/// every rel written that way is one mistake of the serializer.
enum FormatShapeMember {
    /// Message templates whose first quoted text is a member of the format.
    private static let templates = [
        "the JSON:API resource object has no string <…>",
        "<…> must be a string, found ",
        "<…> must be true or false, found ",
        "<…> must be an array, found ",
    ]

    static func named(in message: String) -> String? {
        let template = MessageTemplate.of(message)
        guard templates.contains(where: { template.hasPrefix($0) }) else { return nil }
        for case .slot(.quoted, let member) in MessageTemplate.pieces(of: message) { return member }
        return nil
    }
}

/// A URL's path with ids as placeholders (`https://h/authors/2/` → `/authors/{id}/`): the kind of
/// resource a link leads to, without the instance.
///
/// A path segment is an id when it holds a digit (`2`, `p-1002`, `10CFL`, a UUID) but is not a
/// version (`v2`, `1.1`), or when it mixes cases the way generated ids do (`pLDhp`, `DdrvJ`) and
/// camel-case words do not (`userProfiles`, `OrderItems`). Words (`authors`, `kitchen`) stay:
/// they name collections, or are slugs that tell resources apart. The query keeps its parameters'
/// names, percent-decoded, without their values (`/articles?page[offset]=…&page[limit]=…`); the
/// fragment is dropped.
package enum TargetShape {
    static func isStatus(_ actual: String?) -> Bool {
        guard let actual, !actual.isEmpty else { return false }
        return actual.allSatisfy { $0.isASCII && $0.isNumber }
    }

    package static func of(_ url: String) -> String {
        var rest = url[...]
        if let scheme = rest.range(of: "://") {
            rest = rest[scheme.upperBound...]
            rest = rest[(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex)...]
        }
        let path = rest.prefix { $0 != "?" && $0 != "#" }
        let shape = path.isEmpty ? "/" : path.split(separator: "/", omittingEmptySubsequences: false)
            .map { isID($0) ? "{id}" : String($0) }
            .joined(separator: "/")
        // The query's names, not its values: `?page[offset]=…` is not `?page[number]=…`.
        let query = rest[path.endIndex...].dropFirst().prefix { $0 != "#" }
        let names = query.split(separator: "&").compactMap { parameter -> String? in
            let name = parameter.prefix { $0 != "=" }
            return name.isEmpty ? nil : (String(name).removingPercentEncoding ?? String(name)) + "=…"
        }
        return names.isEmpty ? shape : shape + "?" + names.joined(separator: "&")
    }

    static func isID(_ segment: Substring) -> Bool {
        guard !segment.isEmpty else { return false }
        if segment.contains(where: { $0.isASCII && $0.isNumber }) {
            return !isVersion(segment)
        }
        return hasGeneratedCase(segment)
    }

    /// `v2`, `V1.1`, `2.0` (a bare number is an id).
    private static func isVersion(_ segment: Substring) -> Bool {
        let prefixed = segment.first == "v" || segment.first == "V"
        let digits = prefixed ? segment.dropFirst() : segment
        guard let first = digits.first, first.isASCII, first.isNumber, prefixed || digits.contains(".") else { return false }
        return digits.allSatisfy { ($0.isASCII && $0.isNumber) || $0 == "." } && digits.count <= 6
    }

    /// Upper and lower case mixed other than as words (`pLDhp`, `DdrvJ`; not `userProfiles`).
    private static func hasGeneratedCase(_ segment: Substring) -> Bool {
        guard segment.allSatisfy({ $0.isASCII && $0.isLetter }), segment.contains(where: \.isUppercase), segment.contains(where: \.isLowercase)
        else { return false }
        // Words: an optional lower-case start, then humps of one capital and at least one lower-case letter.
        var characters = segment[...]
        characters = characters.drop(while: \.isLowercase)
        while let capital = characters.first {
            guard capital.isUppercase else { return true }
            let hump = characters.dropFirst().prefix(while: \.isLowercase)
            if hump.isEmpty { return true }
            characters = characters.dropFirst(1 + hump.count)
        }
        return false
    }
}
