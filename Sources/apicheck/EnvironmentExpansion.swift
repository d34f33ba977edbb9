import ArgumentParser

/// `$NAME` and `${NAME}` in a header value, replaced by the environment's values, so a token
/// lives in CI's secrets and environment instead of on the command line (where `ps` and CI logs
/// show it). `$$` is a literal `$`. An unset or empty variable is a usage error (exit 2): a header
/// sent with an empty token is a confusing 401 later.
enum EnvironmentExpansion {
    static func expand(_ text: String, in environment: [String: String], option: String) throws -> String {
        var output = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            output += rest[..<dollar]
            rest = rest[rest.index(after: dollar)...]
            if rest.first == "$" {
                output += "$"
                rest = rest.dropFirst()
                continue
            }
            let braced = rest.first == "{"
            if braced { rest = rest.dropFirst() }
            let name = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            rest = rest.dropFirst(name.count)
            if braced {
                guard rest.first == "}" else { throw ValidationError("\(option): '${' is never closed with '}'.") }
                rest = rest.dropFirst()
            }
            guard !name.isEmpty else { throw ValidationError("\(option): '$' must be followed by a variable name (write $$ for a literal $).") }
            guard let value = environment[String(name)], !value.isEmpty else {
                throw ValidationError("\(option): the environment variable \(name) is not set or empty; export it (e.g. from your CI's secrets) before running apicheck.")
            }
            output += value
        }
        return output + rest
    }
}
