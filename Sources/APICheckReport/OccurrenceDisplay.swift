/// How reports show an occurrence's URL: a path when it is on the root's origin.
struct OccurrenceDisplay {
    let origin: String
    let command: ReportCommand

    init(root: String, command: ReportCommand = .crawl) {
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
    func reached(_ finding: Finding) -> String {
        if command == .verify, finding.relPath.isEmpty, let stub = finding.referrer { return "(stub \(stub))" }
        return "via " + finding.relPathDescription
    }

    func url(_ url: String) -> String {
        guard !origin.isEmpty, url.hasPrefix(origin) else { return url }
        let path = url.dropFirst(origin.count)
        return path.isEmpty ? "/" : (path.first == "/" || path.first == "?" ? String(path) : url)
    }
}
