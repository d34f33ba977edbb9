import APICheckJSON
import APICheckXML

/// Checks whether a response body agrees with its media type (the body half of `type-matches`):
/// the JSON family parses as JSON, the XML family is well-formed, JPEG, PNG, GIF, WebP and PDF
/// start with their signatures, `text/*` is valid UTF-8 (or ASCII, as its charset says).
///
/// Bounded for untrusted bodies: bodies over ``maximumBytes`` are not checked, JSON nesting is
/// limited, XML goes through ``XMLDocumentParser`` (no network, no entities).
public struct BodySniffer: Sendable {
    /// The outcome of a check.
    public enum Verdict: Sendable, Hashable, CustomStringConvertible {
        /// The body is what the type says.
        case agrees
        /// The body is not what the type says; the reason says why, for the report.
        case disagrees(String)
        /// The checker has no test for this type, or the body is too large to check.
        case notChecked(String)

        /// `agrees`, `disagrees: …` or `not checked: …`.
        public var description: String {
            switch self {
            case .agrees: "agrees"
            case .disagrees(let reason): "disagrees: \(reason)"
            case .notChecked(let reason): "not checked: \(reason)"
            }
        }
    }

    /// Largest body checked, in bytes.
    public var maximumBytes: Int
    /// Deepest JSON nesting accepted.
    public var maximumJSONDepth: Int

    /// A sniffer with the given bounds (32 MiB, depth 256 by default).
    public init(maximumBytes: Int = 32 << 20, maximumJSONDepth: Int = 256) {
        self.maximumBytes = maximumBytes
        self.maximumJSONDepth = maximumJSONDepth
    }

    /// Whether `body` agrees with `type` (aliases such as `image/jpg` are checked as the type
    /// they stand for).
    ///
    /// `parsedAsJSON`: the body is already known to parse as JSON (within a depth no greater
    /// than ``maximumJSONDepth``), so a JSON type agrees without parsing it again.
    public func check(_ body: [UInt8], against type: MediaType, parsedAsJSON: Bool = false) -> Verdict {
        guard body.count <= maximumBytes else {
            return .notChecked("the body (\(body.count) bytes) is larger than the \(maximumBytes) bytes checked")
        }
        if type.isJSON, parsedAsJSON, !body.isEmpty, Self.detectedSignature(of: body) == nil { return .agrees }
        if type.isJSON { return checkJSON(body, type) }
        if type.isXML { return checkXML(body, type) }
        if let signature = Signature.forType(type.canonicalEssence) { return checkSignature(body, signature) }
        if type.type == "text" { return checkText(body, type) }
        return .notChecked("there is no body check for \(type.essence)")
    }

    /// The type whose signature `body` starts with (JPEG, PNG, GIF, WebP, PDF), if any.
    public static func detectedSignature(of body: [UInt8]) -> String? {
        Signature.all.first { $0.matches(body) }?.mediaType
    }

    private func checkJSON(_ body: [UInt8], _ type: MediaType) -> Verdict {
        guard !body.isEmpty else { return .disagrees("the body is empty, not a \(type.essence) document") }
        if let detected = Self.detectedSignature(of: body) {
            return .disagrees("the body is not JSON: it starts with the \(detected) signature")
        }
        do {
            _ = try JSONParser(maximumDepth: maximumJSONDepth).parse(body)
            return .agrees
        } catch {
            return .disagrees("the body is not JSON (\(type.essence)): \(error.position.line):\(error.position.column): \(error.message)")
        }
    }

    private func checkXML(_ body: [UInt8], _ type: MediaType) -> Verdict {
        guard !body.isEmpty else { return .disagrees("the body is empty, not a \(type.essence) document") }
        if let detected = Self.detectedSignature(of: body) {
            return .disagrees("the body is not XML: it starts with the \(detected) signature")
        }
        do {
            _ = try XMLDocumentParser.parse(body, documentName: "response")
            return .agrees
        } catch {
            return .disagrees("the body is not well-formed XML (\(type.essence)): \(error.position.line):\(error.position.column): \(error.message)")
        }
    }

    private func checkSignature(_ body: [UInt8], _ signature: Signature) -> Verdict {
        if signature.matches(body) { return .agrees }
        guard !body.isEmpty else { return .disagrees("the body is empty, not \(signature.name)") }
        if let detected = Self.detectedSignature(of: body) {
            return .disagrees("the body is not \(signature.name): it starts with the \(detected) signature")
        }
        let head = body.prefix(8).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }
        return .disagrees("the body does not start with the \(signature.name) signature (\(signature.shown)); it starts with \(head.joined(separator: " "))")
    }

    private func checkText(_ body: [UInt8], _ type: MediaType) -> Verdict {
        let charset = type.parameter("charset")?.lowercased()
        switch charset {
        case nil, "utf-8", "utf8":
            if let offset = Self.firstInvalidUTF8(body) {
                return .disagrees("the body is not valid UTF-8 (byte \(offset)) although \(type.essence) \(charset == nil ? "defaults to" : "declares") UTF-8")
            }
            return .agrees
        case "us-ascii":
            if let offset = body.firstIndex(where: { $0 >= 0x80 }) {
                return .disagrees("the body has a non-ASCII byte at \(offset) although its charset is us-ascii")
            }
            return .agrees
        case let other?:
            return .notChecked("the charset \(other) is not checked")
        }
    }

    /// The offset of the first byte that breaks UTF-8, or `nil` when `bytes` is valid UTF-8.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
            case .emptyInput:
                return nil
            case .error:
                return offset
            }
        }
    }
}

/// The leading bytes of binary formats the checker recognises.
private struct Signature {
    var mediaType: String
    var name: String
    /// The signature as a reader would look for it in a hex dump.
    var shown: String
    var test: @Sendable ([UInt8]) -> Bool

    func matches(_ body: [UInt8]) -> Bool { test(body) }

    static let all: [Signature] = [
        Signature(mediaType: "image/jpeg", name: "a JPEG image", shown: "FF D8 FF") { $0.starts(with: [0xFF, 0xD8, 0xFF]) },
        Signature(mediaType: "image/png", name: "a PNG image", shown: "89 50 4E 47 0D 0A 1A 0A") {
            $0.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        },
        Signature(mediaType: "image/gif", name: "a GIF image", shown: "GIF87a or GIF89a") {
            $0.starts(with: Array("GIF87a".utf8)) || $0.starts(with: Array("GIF89a".utf8))
        },
        Signature(mediaType: "image/webp", name: "a WebP image", shown: "RIFF….WEBP") {
            $0.count >= 12 && $0.starts(with: Array("RIFF".utf8)) && $0[8..<12].elementsEqual("WEBP".utf8)
        },
        // PDF readers accept the header anywhere in the first 1024 bytes.
        Signature(mediaType: "application/pdf", name: "a PDF document", shown: "%PDF-") { body in
            let header = Array("%PDF-".utf8)
            let window = body.prefix(1024)
            guard window.count >= header.count else { return false }
            return (0...(window.count - header.count)).contains { window[$0..<($0 + header.count)].elementsEqual(header) }
        },
    ]

    static func forType(_ essence: String) -> Signature? {
        all.first { $0.mediaType == essence }
    }
}
