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
/// `template` or query `data` entry. The constraints are what the format lets an API advertise
/// (HAL-FORMS `regex`, `min`/`max`, `minLength`/`maxLength`, `options`, `readOnly`): `apicheck
/// probe` generates values that meet them, and values that break each one.
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
    /// HAL-FORMS `regex`: an ECMA-262 pattern the whole value must match.
    public var pattern: String?
    /// HAL-FORMS `min` and `max`, as written (JSON number lexemes).
    public var minimum: String?
    public var maximum: String?
    /// HAL-FORMS `minLength` and `maxLength`.
    public var minimumLength: Int?
    public var maximumLength: Int?
    /// HAL-FORMS `options.inline`: the values the field may take (each option's `value`, or the
    /// option itself when it is a plain value); `nil` when the field has no inline options.
    public var options: [JSONValue]?
    /// HAL-FORMS `options.maxItems` above 1: the field takes a list of the options.
    public var allowsSeveralOptions: Bool
    /// HAL-FORMS `readOnly`: shown, not sent.
    public var isReadOnly: Bool

    /// A form field.
    public init(
        name: String, type: String? = nil, value: JSONValue? = nil, isRequired: Bool = false, title: String? = nil,
        pattern: String? = nil, minimum: String? = nil, maximum: String? = nil, minimumLength: Int? = nil, maximumLength: Int? = nil,
        options: [JSONValue]? = nil, allowsSeveralOptions: Bool = false, isReadOnly: Bool = false
    ) {
        self.name = name
        self.type = type
        self.value = value
        self.isRequired = isRequired
        self.title = title
        self.pattern = pattern
        self.minimum = minimum
        self.maximum = maximum
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
        self.options = options
        self.allowsSeveralOptions = allowsSeveralOptions
        self.isReadOnly = isReadOnly
    }
}
