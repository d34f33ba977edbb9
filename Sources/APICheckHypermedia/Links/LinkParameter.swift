import APICheckJSON

/// One entry of a link's `parameters` (AcmeFlix, PayPal style): a name and, when given, a value.
///
/// AcmeFlix writes `"parameters": {"rating": "{rating}"}` (a value that is itself a placeholder);
/// other APIs write arrays of names or of `{name, value}` objects. Order is kept.
public struct LinkParameter: Sendable, Hashable {
    /// The parameter name, as written.
    public var name: String
    /// The value as written; `nil` when only the name is given.
    public var value: JSONValue?

    /// A parameter; `value` `nil` when only the name is given.
    public init(name: String, value: JSONValue? = nil) {
        self.name = name
        self.value = value
    }

    /// The value as text when it is a concrete string, number or boolean, and not a placeholder
    /// such as `{rating}`: what a URI template variable of the same name may be filled with.
    public var concreteValue: String? {
        switch value {
        case .string(let text) where !URITemplate.looksTemplated(text): text
        case .number(let lexeme): lexeme
        case .bool(let flag): flag ? "true" : "false"
        default: nil
        }
    }
}

/// One input of a form-like link: a Siren action field, a HAL-FORMS property, a Collection+JSON
/// query `data` entry.
public struct FormField: Sendable, Hashable {
    /// The field name, as written.
    public var name: String
    /// The declared input type (Siren `type`, HAL-FORMS `type`), as written.
    public var type: String?
    /// The default or current value.
    public var value: JSONValue?
    /// HAL-FORMS `required`.
    public var isRequired: Bool
    /// Siren `title`, HAL-FORMS and Collection+JSON `prompt`.
    public var title: String?

    /// A form field.
    public init(name: String, type: String? = nil, value: JSONValue? = nil, isRequired: Bool = false, title: String? = nil) {
        self.name = name
        self.type = type
        self.value = value
        self.isRequired = isRequired
        self.title = title
    }
}
