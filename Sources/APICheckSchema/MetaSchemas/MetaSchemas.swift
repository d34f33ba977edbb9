import APICheckJSON

/// The meta-schemas of every supported draft, present in every registry without being added
/// (the 2019-09 and 2020-12 ones with their vocabulary meta-schemas), so that `$schema` and
/// remote `$ref`s to them resolve offline.
enum MetaSchemas {
    /// Parsed once, by absolute URI without fragment.
    static let builtIn: [String: JSONValue] = {
        var result: [String: JSONValue] = [:]
        for (uri, text) in draft4 + draft6 + draft7 + draft2019 + draft2020 {
            // The texts are the specification's own files; a parse failure is a packaging bug.
            guard let value = try? JSONParser().parseValue(Array(text.utf8)) else { continue }
            result[uri] = value
        }
        return result
    }()
}
