import Foundation

/// A path template read for filling and for reading back (`/movies/{movieId}/cast`): its
/// segments as literals, whole-segment parameters, or anything else (`{name}.json`, which links
/// can still fill by text but values cannot be read from).
struct PathTemplate: Sendable, Hashable {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
        case mixed(String)
    }

    let raw: String
    let segments: [Segment]

    init(_ raw: String) {
        self.raw = raw
        segments = OperationMatcher.splitPath(raw).map { segment in
            guard segment.contains("{") else { return .literal(segment.removingPercentEncoding ?? segment) }
            if segment.hasPrefix("{"), segment.hasSuffix("}"), segment.dropFirst().dropLast().allSatisfy({ $0 != "{" && $0 != "}" }) {
                return .parameter(String(segment.dropFirst().dropLast()))
            }
            return .mixed(segment)
        }
    }

    /// The names of its parameters, in order (mixed segments included).
    var parameterNames: [String] {
        var names: [String] = []
        var current: String?
        for character in raw {
            if character == "{" {
                current = ""
            } else if character == "}" {
                if let name = current { names.append(name) }
                current = nil
            } else if current != nil {
                current?.append(character)
            }
        }
        return names
    }

    /// The template with every parameter replaced by its value, percent-encoded for a path
    /// segment; `nil` when a parameter has no value.
    func filled(_ values: [String: String]) -> String? {
        var result = ""
        var current: String?
        for character in raw {
            if character == "{" {
                current = ""
            } else if character == "}" {
                guard let name = current, let value = values[name] else { return nil }
                result += Self.encodeSegment(value)
                current = nil
            } else if current != nil {
                current?.append(character)
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The whole-segment parameters of `path` (what is left after the base path), decoded;
    /// `nil` when the path does not have the template's shape.
    func values(in path: String) -> [String: String]? {
        let parts = OperationMatcher.splitPath(path)
        guard parts.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let literal): guard literal == (part.removingPercentEncoding ?? part) else { return nil }
            case .parameter(let name): values[name] = part.removingPercentEncoding ?? part
            case .mixed: continue
            }
        }
        return values
    }

    private static let segmentAllowed: CharacterSet = {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#")
        return allowed
    }()

    private static let queryAllowed: CharacterSet = {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        return allowed
    }()

    static func encodeSegment(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: segmentAllowed) ?? value
    }

    static func encodeQuery(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? value
    }
}
