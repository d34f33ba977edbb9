/// A message's wording without what varies between occurrences of one problem.
enum MessageTemplate {
    /// URLs become `<url>`, quoted text `<…>`, runs of digits `#`.
    static func of(_ message: String) -> String {
        var output = ""
        var characters = message[...]
        while let first = characters.first {
            if characters.hasPrefix("http://") || characters.hasPrefix("https://") {
                output += "<url>"
                characters = characters.drop { !$0.isWhitespace && $0 != ")" && $0 != "," }
            } else if first == "'" || first == "\"", let end = characters.dropFirst().firstIndex(of: first) {
                output += "<…>"
                characters = characters[characters.index(after: end)...]
            } else if first.isASCII, first.isNumber {
                output += "#"
                characters = characters.drop { $0.isASCII && $0.isNumber }
            } else {
                output.append(first)
                characters = characters.dropFirst()
            }
        }
        return output
    }
}
