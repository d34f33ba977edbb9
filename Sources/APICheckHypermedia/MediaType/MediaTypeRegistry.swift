import APICheckModel

/// What the checker knows of the IANA registry: top-level types and common unregistered aliases.
enum MediaTypeRegistry {
    /// RFC 6838 §4.2 and later registrations.
    static let topLevelTypes: Set<String> = [
        "application", "audio", "example", "font", "haptics", "image", "message", "model", "multipart", "text", "video",
    ]

    /// An unregistered name that clients and servers use for a registered type.
    struct Alias {
        var replacement: String
        var reason: String
    }

    private static let aliases: [String: Alias] = [
        "image/jpg": Alias(replacement: "image/jpeg", reason: "is not a registered media type"),
        "image/pjpeg": Alias(replacement: "image/jpeg", reason: "is a non-standard name for progressive JPEG"),
        "image/x-png": Alias(replacement: "image/png", reason: "is not a registered media type"),
        "image/svg": Alias(replacement: "image/svg+xml", reason: "is not a registered media type"),
        "text/json": Alias(replacement: "application/json", reason: "is not a registered media type"),
        "text/x-json": Alias(replacement: "application/json", reason: "is not a registered media type"),
        "application/x-json": Alias(replacement: "application/json", reason: "is not a registered media type"),
        "application/x-javascript": Alias(replacement: "text/javascript", reason: "is not a registered media type"),
        "text/x-javascript": Alias(replacement: "text/javascript", reason: "is not a registered media type"),
        "application/x-pdf": Alias(replacement: "application/pdf", reason: "is not a registered media type"),
        "audio/mp3": Alias(replacement: "audio/mpeg", reason: "is not a registered media type"),
        "audio/x-wav": Alias(replacement: "audio/wav", reason: "is not a registered media type"),
        "text/yaml": Alias(replacement: "application/yaml", reason: "is not a registered media type"),
        "text/x-yaml": Alias(replacement: "application/yaml", reason: "is not a registered media type"),
        "application/x-yaml": Alias(replacement: "application/yaml", reason: "is not a registered media type"),
        "application/x-zip-compressed": Alias(replacement: "application/zip", reason: "is not a registered media type"),
    ]

    /// The registered type `essence` (lower-cased) stands for, if it is a known alias.
    static func alias(_ essence: String) -> Alias? { aliases[essence] }

    /// The most likely top-level type for a subtype written without one (`vnd.x+json` →
    /// `application`, `jpeg` → `image`).
    static func guessTopLevelType(forSubtype subtype: String) -> String {
        switch subtype {
        case "jpeg", "png", "gif", "webp", "avif", "svg+xml", "bmp", "tiff": return "image"
        case "html", "plain", "csv", "css", "javascript", "markdown", "calendar": return "text"
        case "mpeg", "ogg", "wav", "aac", "flac": return "audio"
        case "mp4", "webm", "quicktime": return "video"
        default: return "application"
        }
    }
}

extension MediaType {
    /// Every problem the `type-syntax` rule reports for `text`: a syntax problem (which hides the
    /// rest), or problems with the names of a well-formed type (RFC 6838 §4.2 restricted names,
    /// unregistered top-level types, wildcards, unregistered aliases with their registered
    /// replacement). Empty when `text` is a valid, registered-looking media type.
    public static func problems(in text: String) -> [MediaTypeProblem] {
        let mediaType: MediaType
        do {
            mediaType = try MediaType(parsing: text)
        } catch {
            return [error]
        }
        var problems: [MediaTypeProblem] = []
        let parameters = mediaType.parameters.isEmpty ? "" : String(mediaType.description.dropFirst(mediaType.essence.count))
        if mediaType.type == "*" || mediaType.subtype == "*" {
            problems.append(MediaTypeProblem(
                kind: .wildcard, text: text,
                message: "'\(text)' is a media range for Accept headers, not the type of a resource"))
            return problems
        }
        for (name, part) in [("type", mediaType.type), ("subtype", mediaType.subtype)] {
            if let message = restrictedNameProblem(part) {
                problems.append(MediaTypeProblem(kind: .invalidCharacter, text: text, message: "the \(name) of '\(text)' \(message)"))
            }
        }
        if !MediaTypeRegistry.topLevelTypes.contains(mediaType.type) {
            problems.append(MediaTypeProblem(
                kind: .unknownTopLevelType, text: text,
                message: "'\(mediaType.type)' in '\(text)' is not a registered top-level type (application, audio, font, image, message, model, multipart, text, video, …)"
            ))
        }
        if let alias = MediaTypeRegistry.alias(mediaType.essence) {
            let suggestion = alias.replacement + parameters
            problems.append(MediaTypeProblem(
                kind: .unregisteredAlias, text: text,
                message: "'\(mediaType.essence)' \(alias.reason): use '\(alias.replacement)'", suggestion: suggestion))
        }
        return problems
    }

    /// RFC 6838 §4.2 `restricted-name`: 1 to 127 characters, the first a letter or digit, the
    /// rest letters, digits and `!#$&-^_.+`.
    private static func restrictedNameProblem(_ name: String) -> String? {
        guard name.utf8.count <= 127 else { return "is longer than 127 characters (RFC 6838 §4.2)" }
        guard let first = name.utf8.first, URICharacters.isAlpha(first) || URICharacters.isDigit(first) else {
            return "must start with a letter or digit (RFC 6838 §4.2)"
        }
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "-"),
                UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "+"):
                continue
            default:
                if URICharacters.isAlpha(byte) || URICharacters.isDigit(byte) { continue }
                return "contains \(MediaTypeParser.describe(byte)), which RFC 6838 §4.2 does not allow in names"
            }
        }
        return nil
    }
}
