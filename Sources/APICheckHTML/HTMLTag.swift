/// The elements a report may contain: a closed set, so no runtime string ever becomes a tag name.
///
/// Left out on purpose: `script` and `style` (only ``HTMLDocument`` writes them, from our own code),
/// `title` (the document's), and every element whose content is parsed as raw text or that loads
/// or runs something (`iframe`, `object`, `embed`, `noscript`, `template`, `textarea`, `svg`,
/// `math`, `base`, `link`, `form`, `img`).
public enum HTMLTag: String, Sendable, CaseIterable {
    case a, article, aside, bdi, br, button, caption, code, dd, details, div, dl, dt, em, footer, h1, h2, h3, h4,
        header, hr, input, label, li, main, nav, ol, option, p, pre, section, select, small, span, strong, summary,
        table, tbody, td, th, thead, tr, ul

    /// Void elements have no closing tag and no children.
    public var isVoid: Bool {
        switch self {
        case .br, .hr, .input: true
        default: false
        }
    }
}

/// Attributes whose value is plain text: escaped, never interpreted as a URL, a script or a style.
///
/// No event handler (`on…`) and no `style` attribute exists here: their values are code.
public enum HTMLTextAttribute: String, Sendable, CaseIterable {
    case title, value, placeholder, lang
    case ariaLabel = "aria-label"
}

/// Attributes whose value is a URL: checked by ``HTMLURLFilter`` before it is escaped.
public enum HTMLURLAttribute: String, Sendable, CaseIterable {
    case href
}

/// Attributes whose value is one or more ``HTMLToken``s (names chosen by our own code).
public enum HTMLTokenAttribute: String, Sendable, CaseIterable {
    case id, `class`, `for`, name, type, role, dir
    case ariaControls = "aria-controls"
}

/// Attributes that are present or absent, without a value.
public enum HTMLFlagAttribute: String, Sendable, CaseIterable {
    case hidden, open, checked, disabled, selected
}
