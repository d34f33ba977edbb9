import APICheckModel
import APICheckSpool

/// The wording of a finding that every renderer shares; renderers escape it for their format.
extension Finding {
    /// `the link does not resolve (expected 2xx, saw 404 Not Found)`.
    package var messageWithEvidence: String {
        // Each fact once: evidence the message already states is not repeated.
        let expected = expected.flatMap { message.contains($0) ? nil : $0 }
        let actual = actual.flatMap { message.contains($0) ? nil : $0 }
        return switch (expected, actual) {
        case (let expected?, let actual?): "\(message) (expected \(expected), saw \(actual))"
        case (let expected?, nil): "\(message) (expected \(expected))"
        case (nil, let actual?): "\(message) (saw \(actual))"
        case (nil, nil): message
        }
    }

    /// `rel poster at /_links/poster (HAL) on https://api.example.com/movies/3`, or `nil` when
    /// nothing is known about the link.
    package var linkDescription: String? {
        var parts: [String] = []
        if let rel { parts.append("rel " + rel) }
        if let sourcePointer { parts.append("at " + sourcePointer) }
        if let format { parts.append("(\(format))") }
        if let referrer { parts.append("on " + referrer) }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// `declared image/jpeg, served text/html`, or `nil` when neither is known.
    package var typeDescription: String? {
        var parts: [String] = []
        if let declaredType { parts.append("declared " + declaredType) }
        if let servedType { parts.append("served " + servedType) }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// The finding in plain lines: `error[rule] METHOD url — message (expected …, saw …)`, then
    /// `path:`, `link:` and `type:` lines.
    package var plainLines: [String] {
        var lines = ["\(severity)[\(rule)] \(method) \(url) — \(messageWithEvidence)", "path: " + relPathDescription]
        if let linkDescription { lines.append("link: " + linkDescription) }
        if let typeDescription { lines.append("type: " + typeDescription) }
        return lines
    }
}
