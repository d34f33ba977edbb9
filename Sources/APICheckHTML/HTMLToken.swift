/// A name our own code chose (an id, a class, a filter key): letters, digits, `-` and `_` only.
///
/// Tokens are still escaped when written; the character set is what lets a token be used as a
/// CSS selector or a fragment (`#defect-3`) without further quoting.
public struct HTMLToken: Sendable, Hashable, CustomStringConvertible {
    /// The token's text.
    public let description: String

    /// A token written in our source, `HTMLToken("defects")`. Traps on a character outside the set:
    /// that is a bug in our code, not in the input.
    public init(_ literal: StaticString) {
        let text = literal.description
        precondition(Self.isValid(text), "HTMLToken: '\(text)' may only hold ASCII letters, digits, '-' and '_'")
        description = text
    }

    /// A numbered token, `HTMLToken("defect-", 3)` → `defect-3`.
    public init(_ prefix: StaticString, _ number: Int) {
        description = HTMLToken(prefix).description + String(number)
    }

    /// A token from a runtime string our code made (a rule id), or `nil` when it holds anything
    /// outside the set or is longer than 200 characters.
    public init?(validating text: String) {
        guard Self.isValid(text), text.utf8.count <= 200 else { return nil }
        description = text
    }

    private static func isValid(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F
        }
    }
}
