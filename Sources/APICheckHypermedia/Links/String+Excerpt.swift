extension String {
    /// At most `limit` characters, ending in `…` when cut. Document text quoted in messages and
    /// paths goes through it, so a hostile key or href repeated across thousands of links
    /// cannot inflate a report.
    package func excerpt(_ limit: Int = 80) -> String {
        guard utf8.count > limit else { return self }
        var index = startIndex
        var count = 0
        while index < endIndex && count < limit {
            formIndex(after: &index)
            count += 1
        }
        return index == endIndex ? self : String(self[..<index]) + "…"
    }
}
