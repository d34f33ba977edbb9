extension URITemplate {
    /// A variable's value (RFC 6570 §2.3): a string, a list, or an associative array of ordered pairs.
    ///
    /// Literals build values directly: `"red"`, `["red", "green"]`, `["semi": ";", "dot": "."]`
    /// (a dictionary literal keeps its order).
    public enum Value: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
        ExpressibleByDictionaryLiteral
    {
        case string(String)
        case list([String])
        case associativeArray([Pair])

        /// One `(name, value)` of an associative array.
        public struct Pair: Sendable, Hashable {
            /// The name.
            public var key: String
            /// The value.
            public var value: String

            /// A pair.
            public init(_ key: String, _ value: String) {
                self.key = key
                self.value = value
            }
        }

        /// A string value.
        public init(stringLiteral value: String) { self = .string(value) }
        /// A list value.
        public init(arrayLiteral elements: String...) { self = .list(elements) }
        /// An associative array, in the literal's order.
        public init(dictionaryLiteral elements: (String, String)...) {
            self = .associativeArray(elements.map { Pair($0.0, $0.1) })
        }

        /// An associative array from pairs in the order given.
        public static func associative(_ pairs: KeyValuePairs<String, String>) -> Value {
            .associativeArray(pairs.map { Pair($0.key, $0.value) })
        }

        /// Empty lists and empty associative arrays are undefined (RFC 6570 §2.3); an empty
        /// string is defined.
        public var isDefined: Bool {
            switch self {
            case .string: true
            case .list(let items): !items.isEmpty
            case .associativeArray(let pairs): !pairs.isEmpty
            }
        }
    }
}
