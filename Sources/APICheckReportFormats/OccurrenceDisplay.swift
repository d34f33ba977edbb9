import APICheckFindings
import APICheckModel
import APICheckSpool

/// How reports show an occurrence's URL: a path when it is on the root's origin.
package struct OccurrenceDisplay {
    let origin: String
    let command: ReportCommand

    package init(root: String, command: ReportCommand = .crawl) {
        self.command = command
        // `scheme://authority` of the root; URLs there are shown by path.
        if let schemeEnd = root.range(of: "://") {
            let rest = root[schemeEnd.upperBound...]
            origin = String(root[..<(rest.firstIndex(of: "/") ?? root.endIndex)])
        } else {
            origin = ""
        }
    }

    /// How the occurrence was reached: the rel path from the root for a crawl's (`via root →
    /// orders[0]`); the stub file for verify's drifts (`(stub stubs/orders.json:1:1)`), which no
    /// link led to.
    package func reached(_ finding: Finding) -> String {
        if command == .verify, finding.relPath.isEmpty, let stub = finding.referrer { return "(stub \(stub))" }
        return "via " + finding.relPathDescription
    }

    package func url(_ url: String) -> String {
        guard !origin.isEmpty, url.hasPrefix(origin) else { return url }
        let path = url.dropFirst(origin.count)
        return path.isEmpty ? "/" : (path.first == "/" || path.first == "?" ? String(path) : url)
    }

    /// `GET /authors/ via root → authors`: the occurrence in one line, unescaped.
    package func line(_ finding: Finding) -> String {
        "\(finding.method) \(url(finding.url)) \(reached(finding))"
    }

    /// One line per occurrence, never two alike: occurrences that read the same by method, URL
    /// and rel path (the links of one resource, found at different places in it) say what
    /// differs, the first of these that does: where in the resource (`at /_links/books`), the
    /// rel, the resource it was found on, the message; then a number.
    package func lines<C: Collection>(_ findings: C) -> [String] where C.Element == Finding {
        let findings = Array(findings)
        var lines = findings.map(line)
        let details: [(Finding) -> String?] = [
            { $0.sourcePointer.map { "at " + $0 } },
            { $0.rel.map { "rel " + $0 } },
            { $0.referrer.map { "on " + url($0) } },
            { "— " + $0.messageWithEvidence },
        ]
        for detail in details {
            let groups = Dictionary(grouping: lines.indices, by: { lines[$0] }).values.filter { $0.count > 1 }
            guard !groups.isEmpty else { break }
            for group in groups {
                let values = group.map { detail(findings[$0]) }
                // A detail every line of the group shares tells none of them apart.
                guard Set(values.map { $0 ?? "" }).count > 1 else { continue }
                for (index, value) in zip(group, values) {
                    if let value { lines[index] += " " + value }
                }
            }
        }
        // Alike in everything shown (a deep rel path is abbreviated in the middle): numbered.
        var seen: [String: Int] = [:]
        for index in lines.indices {
            let number = seen[lines[index], default: 0] + 1
            seen[lines[index]] = number
            if number > 1 { lines[index] += " (#\(number))" }
        }
        return lines
    }
}
