import APICheckFindings
import APICheckJSON
import APICheckOpenAPI
import APICheckProbe
import Foundation

/// `apicheck probe --openapi`: the document's operations as affordances, beside what the API
/// advertises (which wins where both name the same request): request bodies as writes, query
/// parameters of GETs as search forms, GETs with path parameters as templated reads. A write on a
/// templated path goes to a URL the crawl fetched that fits the template.
enum OpenAPIProbeAffordances {
    static func affordances(
        _ inputs: [OpenAPIProbeInput], root: URL, fetched: [(url: String, group: String)], advertised: [Affordance]
    ) -> [Affordance] {
        let origin = root.absoluteString.range(of: "://").map { range in
            String(root.absoluteString[..<(root.absoluteString[range.upperBound...].firstIndex(of: "/") ?? root.absoluteString.endIndex)])
        } ?? root.absoluteString
        let taken = Set(advertised.map { "\($0.method) \($0.target)" })
        var affordances: [Affordance] = []
        for input in inputs {
            let base = origin + (input.basePaths.first ?? "")
            let template = base + input.path
            let place: RelPath = ["(openapi) \(input.operationName)"]
            func affordance(_ kind: Affordance.Kind, target: String, schema: JSONValue?, contentType: String?, examples: [JSONValue]) -> Affordance {
                Affordance(
                    kind: kind, method: input.method, target: target, rel: input.path, format: "OpenAPI", relPath: place, sourcePointer: nil,
                    referrer: template, requestContentType: contentType, responseType: input.responseType, bodySchema: schema, examples: examples)
            }
            switch input.method {
            case "POST", "PUT", "PATCH":
                guard let schema = input.bodySchema, let target = concrete(template, input, fetched: fetched), !taken.contains("\(input.method) \(target)") else { continue }
                affordances.append(affordance(.write, target: target, schema: schema, contentType: input.bodyContentType, examples: input.bodyExamples))
            case "GET" where !input.pathParameters.isEmpty:
                guard !taken.contains("GET \(template)") else { continue }
                affordances.append(affordance(.templatedRead, target: template, schema: nil, contentType: nil, examples: []))
            case "GET":
                guard let query = input.querySchema, !taken.contains("GET \(template)") else { continue }
                affordances.append(affordance(.queryForm, target: template, schema: query, contentType: nil, examples: []))
            default:
                continue
            }
        }
        return affordances
    }

    /// `template` itself when it has no path parameter, else the first fetched URL it fits.
    private static func concrete(_ template: String, _ input: OpenAPIProbeInput, fetched: [(url: String, group: String)]) -> String? {
        guard !input.pathParameters.isEmpty else { return template }
        let pattern = template.split(separator: "/", omittingEmptySubsequences: false)
        return fetched.lazy.map(\.url).first { url in
            let path = url.split(separator: "?", maxSplits: 1).first.map { $0.split(separator: "/", omittingEmptySubsequences: false) } ?? []
            guard path.count == pattern.count else { return false }
            return zip(path, pattern).allSatisfy { segment, expected in expected.hasPrefix("{") && expected.hasSuffix("}") ? !segment.isEmpty : segment == expected }
        }
    }
}
