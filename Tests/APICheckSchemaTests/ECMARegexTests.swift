import Testing

@testable import APICheckSchema

/// The ECMA-262 regex engine. Every `MatchCase` below was checked against Node's
/// `new RegExp(pattern, "u").test(input)` when written.
@Suite("ECMARegex")
struct ECMARegexTests {
    struct MatchCase: Sendable, CustomTestStringConvertible {
        var pattern: String
        var input: String
        var expected: Bool
        init(_ pattern: String, _ input: String, _ expected: Bool) {
            self.pattern = pattern
            self.input = input
            self.expected = expected
        }
        var testDescription: String { "/\(pattern)/u.test(\(input.debugDescription)) == \(expected)" }
    }

    static let budget = 1_000_000

    // MARK: JSON-Schema-Test-Suite: optional/ecmascript-regex.json, non-bmp-regex.json, pattern.json,
    // patternProperties.json (the patterns, applied to the strings or property names they test)

    static let ecole = "Les hivers de mon enfance etaient des saisons longues, longues. Nous vivions en trois lieux: l'ecole, l'eglise et la patinoire; mais la vraie vie etait sur la patinoire."
    static let ecoleAccented = "Les hivers de mon enfance \u{e9}taient des saisons longues, longues. Nous vivions en trois lieux: l'\u{e9}cole, l'\u{e9}glise et la patinoire; mais la vraie vie \u{e9}tait sur la patinoire."
    static let ecoleUpper = "LES HIVERS DE MON ENFANCE \u{c9}TAIENT DES SAISONS LONGUES, LONGUES. NOUS VIVIONS EN TROIS LIEUX: L'\u{c9}COLE, L'\u{c9}GLISE ET LA PATINOIRE; MAIS LA VRAIE VIE \u{c9}TAIT SUR LA PATINOIRE."

    static let suiteCases: [MatchCase] = [
        MatchCase(#"^abc$"#, "abc\\n", false), MatchCase(#"^abc$"#, "abc", true),
        MatchCase(#"^abc$"#, "abc\n", false),
        MatchCase(#"^\t$"#, "\\t", false), MatchCase(#"^\t$"#, "\t", true),
        MatchCase(#"^\cC$"#, "\\cC", false), MatchCase(#"^\cC$"#, "\u{3}", true),
        MatchCase(#"^\cc$"#, "\\cc", false), MatchCase(#"^\cc$"#, "\u{3}", true),
        MatchCase(#"^\d$"#, "0", true), MatchCase(#"^\d$"#, "\u{7c0}", false),
        MatchCase(#"^\D$"#, "0", false), MatchCase(#"^\D$"#, "\u{7c0}", true),
        MatchCase(#"^\w$"#, "a", true), MatchCase(#"^\w$"#, "\u{e9}", false),
        MatchCase(#"^\W$"#, "a", false), MatchCase(#"^\W$"#, "\u{e9}", true),
        MatchCase(#"^\s$"#, " ", true), MatchCase(#"^\s$"#, "\t", true), MatchCase(#"^\s$"#, "\u{b}", true),
        MatchCase(#"^\s$"#, "\u{c}", true), MatchCase(#"^\s$"#, "\u{a0}", true), MatchCase(#"^\s$"#, "\u{feff}", true),
        MatchCase(#"^\s$"#, "\n", true), MatchCase(#"^\s$"#, "\u{2029}", true), MatchCase(#"^\s$"#, "\u{2003}", true),
        MatchCase(#"^\s$"#, "\u{1}", false), MatchCase(#"^\s$"#, "\u{2013}", false),
        MatchCase(#"^\S$"#, " ", false), MatchCase(#"^\S$"#, "\t", false), MatchCase(#"^\S$"#, "\u{b}", false),
        MatchCase(#"^\S$"#, "\u{c}", false), MatchCase(#"^\S$"#, "\u{a0}", false), MatchCase(#"^\S$"#, "\u{feff}", false),
        MatchCase(#"^\S$"#, "\n", false), MatchCase(#"^\S$"#, "\u{2029}", false), MatchCase(#"^\S$"#, "\u{2003}", false),
        MatchCase(#"^\S$"#, "\u{1}", true), MatchCase(#"^\S$"#, "\u{2013}", true),
        MatchCase(#"\p{Letter}cole"#, ecole, true), MatchCase(#"\p{Letter}cole"#, ecoleAccented, true),
        MatchCase(#"\p{Letter}cole"#, ecoleUpper, false),
        MatchCase(#"\wcole"#, ecole, true), MatchCase(#"\wcole"#, ecoleAccented, false), MatchCase(#"\wcole"#, ecoleUpper, false),
        MatchCase(#"[a-z]cole"#, ecoleAccented, false), MatchCase(#"[a-z]cole"#, ecole, true),
        MatchCase(#"^\d+$"#, "42", true), MatchCase(#"^\d+$"#, "-%#", false), MatchCase(#"^\d+$"#, "\u{9ea}\u{9e8}", false),
        MatchCase(#"^\p{digit}+$"#, "42", true), MatchCase(#"^\p{digit}+$"#, "-%#", false),
        MatchCase(#"^\p{digit}+$"#, "\u{9ea}\u{9e8}", true),
        MatchCase(#"\p{Letter}cole"#, "l'ecole", true), MatchCase(#"\p{Letter}cole"#, "l'\u{e9}cole", true),
        MatchCase(#"\p{Letter}cole"#, "L'\u{c9}COLE", false),
        MatchCase(#"\wcole"#, "l'ecole", true), MatchCase(#"\wcole"#, "l'\u{e9}cole", false),
        MatchCase(#"[a-z]cole"#, "l'\u{e9}cole", false), MatchCase(#"[a-z]cole"#, "l'ecole", true),
        // non-bmp-regex.json: the pattern holds U+1F432 literally
        MatchCase("^\u{1F432}*$", "", true), MatchCase("^\u{1F432}*$", "\u{1F432}", true),
        MatchCase("^\u{1F432}*$", "\u{1F432}\u{1F432}", true), MatchCase("^\u{1F432}*$", "\u{1F409}", false),
        MatchCase("^\u{1F432}*$", "\u{1F409}\u{1F409}", false), MatchCase("^\u{1F432}*$", "D", false),
        MatchCase("^\u{1F432}*$", "DD", false),
        // pattern.json, patternProperties.json
        MatchCase(#"^a*$"#, "aaa", true), MatchCase(#"^a*$"#, "abc", false), MatchCase(#"a+"#, "xxaayy", true),
        MatchCase(#"f.*o"#, "foo", true), MatchCase(#"f.*o"#, "foooooo", true), MatchCase(#"f.*o"#, "bar", false),
        MatchCase(#"a*"#, "a", true), MatchCase(#"a*"#, "bar", true), MatchCase(#"aaa*"#, "aaaa", true),
        MatchCase(#"aaa*"#, "a", false),
        MatchCase(#"[0-9]{2,}"#, "answer 1", false), MatchCase(#"[0-9]{2,}"#, "a31b", true),
        MatchCase(#"X_"#, "a_x_3", false), MatchCase(#"X_"#, "a_X_3", true),
        MatchCase(#"f.*"#, "foo", true), MatchCase(#"b.*"#, "foo", false), MatchCase(#"b.*"#, "foobar", true),
        MatchCase(#"^.*bar$"#, "foobar", true),
        // optional/format/regex.json's valid example, applied
        MatchCase(#"([abc])+\s+$"#, "xab  ", true), MatchCase(#"([abc])+\s+$"#, "ab  x", false),
    ]

    // MARK: Syntax and semantics beyond the suite

    static let syntaxCases: [MatchCase] = [
        // anchors, alternation, groups
        MatchCase(#"^$"#, "", true), MatchCase(#"^$"#, "a", false), MatchCase(#""#, "anything", true),
        MatchCase(#"a|b"#, "xb", true), MatchCase(#"^(?:a|bc)$"#, "bc", true), MatchCase(#"^(?:a|bc)$"#, "b", false),
        MatchCase(#"^(a|)$"#, "", true), MatchCase(#"a||b"#, "", true), MatchCase(#"^(?<year>\d{4})-(?<m>\d\d)$"#, "2024-05", true),
        MatchCase(#"x^"#, "x", false), MatchCase(#"$x"#, "x", false), MatchCase(#"^a$|^b$"#, "b", true),
        MatchCase(#"abc$"#, "abc\n", false), MatchCase(#"^abc"#, "\nabc", false),
        // quantifiers
        MatchCase(#"^a{3}$"#, "aaa", true), MatchCase(#"^a{3}$"#, "aa", false), MatchCase(#"^a{2,}$"#, "aaaaa", true),
        MatchCase(#"^a{2,3}$"#, "aaaa", false), MatchCase(#"^a{0}$"#, "", true), MatchCase(#"^a{0,0}b$"#, "b", true),
        MatchCase(#"^a+?$"#, "aaa", true), MatchCase(#"^a*?b"#, "aab", true), MatchCase(#"^a??b$"#, "ab", true),
        MatchCase(#"^a{2,3}?$"#, "aaa", true), MatchCase(#"^(a{2,3}){2,3}$"#, "aaa", false),
        MatchCase(#"^(a{2,3}){2,3}$"#, "aaaa", true), MatchCase(#"^(a{2,3}){2,3}$"#, "aaaaaaaaa", true),
        MatchCase(#"^(a{2,3}){2,3}$"#, "aaaaaaaaaa", false), MatchCase(#"^((ab){2}c){2}$"#, "ababcababc", true),
        MatchCase(#"^(a*)*$"#, "aaa", true), MatchCase(#"^(a*)+$"#, "", true), MatchCase(#"^(a?){5}a{5}$"#, "aaaaa", true),
        // classes
        MatchCase(#"^[abc]+$"#, "cab", true), MatchCase(#"^[^abc]+$"#, "def", true), MatchCase(#"^[^abc]$"#, "a", false),
        MatchCase(#"^[a-z0-9-]+$"#, "kebab-case-1", true), MatchCase(#"^[a-z0-9-]+$"#, "Kebab", false),
        MatchCase(#"^[-a]+$"#, "-a", true), MatchCase(#"^[a-]+$"#, "-a", true), MatchCase(#"^[\d-]+$"#, "1-2", true),
        MatchCase(#"^[\w.]+$"#, "a.b_c", true), MatchCase(#"^[\s\S]$"#, "\n", true), MatchCase(#"^[^]$"#, "\n", true),
        MatchCase(#"[]"#, "a", false), MatchCase(#"^[\]\[]+$"#, "][", true), MatchCase(#"^[[]$"#, "[", true),
        MatchCase(#"^[\b]$"#, "\u{8}", true), MatchCase(#"^[\-]$"#, "-", true), MatchCase(#"^[\^]$"#, "^", true),
        MatchCase(#"^[^\d\s]$"#, "a", true), MatchCase(#"^[^\d\s]$"#, "5", false), MatchCase(#"^[^\D]$"#, "5", true),
        MatchCase(#"^[\W\d]$"#, "5", true), MatchCase(#"^[\W\d]$"#, "a", false),
        MatchCase(#"^[\u{1F400}-\u{1F4FF}]$"#, "\u{1F432}", true), MatchCase("^[\u{1F400}-\u{1F4FF}]$", "\u{1F600}", false),
        MatchCase(#"^[😀-😂]$"#, "😁", true), MatchCase(#"^.$"#, "😁", true), MatchCase(#"^..$"#, "😁", false),
        // dot and line terminators
        MatchCase(#"^.$"#, "\n", false), MatchCase(#"^.$"#, "\r", false), MatchCase(#"^.$"#, "\u{2028}", false),
        MatchCase(#"^.$"#, "\u{2029}", false), MatchCase(#"^.$"#, "\u{85}", true), MatchCase(#"a.c"#, "xa c", true),
        // escapes
        MatchCase(#"^\u0041\x42\u{43}\u{000044}$"#, "ABCD", true), MatchCase(#"^\uD83D\uDC32$"#, "\u{1F432}", true),
        MatchCase(#"^\n\r\v\f\0$"#, "\n\r\u{b}\u{c}\u{0}", true), MatchCase(#"^\.\*\+\?\(\)\[\]\{\}\|\/\\\^\$$"#, #".*+?()[]{}|/\^$"#, true),
        MatchCase(#"^\cJ$"#, "\n", true), MatchCase(#"^[\cJ]$"#, "\n", true), MatchCase(#"^é$"#, "\u{e9}", true),
        MatchCase(#"^é$"#, "e\u{301}", false),
        // word boundaries
        MatchCase(#"\bfoo\b"#, "a foo b", true), MatchCase(#"\bfoo\b"#, "afoo", false), MatchCase(#"\Bfoo"#, "afoo", true),
        MatchCase(#"\B"#, "", true), MatchCase(#"\b"#, "", false), MatchCase(#"\b"#, "\u{e9}", false),
        MatchCase(#"^\b$"#, "", false), MatchCase(#"a\b"#, "a\u{e9}", true),
        // Unicode properties
        MatchCase(#"^\p{Lu}\p{Ll}+$"#, "\u{c9}cole", true), MatchCase(#"^\p{Lu}$"#, "a", false),
        MatchCase(#"^\P{L}+$"#, "123", true), MatchCase(#"^\P{L}+$"#, "12a", false), MatchCase(#"^\p{L}$"#, "\u{4e2d}", true),
        MatchCase(#"^\p{Lt}$"#, "\u{1c5}", true), MatchCase(#"^\p{Lm}$"#, "\u{2b0}", true), MatchCase(#"^\p{Lo}$"#, "\u{5d0}", true),
        MatchCase(#"^\p{N}+$"#, "\u{bd}\u{2163}7", true), MatchCase(#"^\p{Nd}$"#, "\u{bd}", false), MatchCase(#"^\p{P}+$"#, "!?\u{2014}", true),
        MatchCase(#"^\p{S}+$"#, "$+\u{20ac}", true), MatchCase(#"^\p{Z}$"#, "\u{2003}", true), MatchCase(#"^\p{Z}$"#, "\t", false),
        MatchCase(#"^\p{Number}$"#, "5", true), MatchCase(#"^\p{gc=Lu}$"#, "Q", true), MatchCase(#"^\p{General_Category=Nd}$"#, "Q", false),
        MatchCase(#"^\p{Script=Latin}+$"#, "\u{e9}t\u{e9}", true), MatchCase(#"^\p{sc=Greek}+$"#, "\u{3b1}\u{3b2}", true),
        MatchCase(#"^\p{Script=Cyrillic}+$"#, "\u{416}\u{44b}", true), MatchCase(#"^\p{Script=Cyrillic}$"#, "a", false),
        MatchCase(#"^\P{Script=Latin}$"#, "a", false), MatchCase(#"^\p{scx=Grek}$"#, "\u{342}", true),
        MatchCase(#"^[\p{L}\d_]+$"#, "\u{e9}t\u{e9}_2", true), MatchCase(#"^[^\p{L}]$"#, "\u{e9}", false),
        MatchCase(#"^[^\P{L}]$"#, "\u{e9}", true), MatchCase(#"^\p{Any}$"#, "\u{1F432}", true), MatchCase(#"^\p{ASCII}$"#, "\u{e9}", false),
        MatchCase(#"^\p{Alphabetic}$"#, "\u{e9}", true), MatchCase(#"^\p{White_Space}$"#, "\u{85}", true),
        MatchCase(#"^\p{Emoji_Presentation}$"#, "\u{1F432}", true), MatchCase(#"^\p{Uppercase}$"#, "\u{2160}", true),
        // backreferences (budgeted)
        MatchCase(#"^(a+)b\1$"#, "aabaa", true), MatchCase(#"^(a+)b\1$"#, "aaba", false), MatchCase(#"(\w)\1"#, "abccd", true),
        MatchCase(#"^(?<q>["'])x\k<q>$"#, "'x'", true), MatchCase(#"^(?<q>["'])x\k<q>$"#, #"'x""#, false),
        MatchCase(#"^\1(a)$"#, "a", true), MatchCase(#"^(a)|\1b$"#, "b", true), MatchCase(#"^(?:(a)|b)\1$"#, "b", true),
        MatchCase(#"^(?:(a)|b)+\1$"#, "abb", true), MatchCase(#"^(?:(a)|b)+\1$"#, "aba", false),
        MatchCase(#"^(?:(a)|b)+\1$"#, "ab", true), MatchCase(#"^(\u{1F432})\1$"#, "\u{1F432}\u{1F432}", true),
        MatchCase(#"^(a*)*\1$"#, "aa", true), MatchCase(#"(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\10"#, "abcdefghijj", true),
        // lookahead, lookbehind (budgeted)
        MatchCase(#"^(?=.*\d)(?=.*[a-z]).{8,}$"#, "password1", true), MatchCase(#"^(?=.*\d)(?=.*[a-z]).{8,}$"#, "password", false),
        MatchCase(#"^(?!foo)\w+$"#, "foobar", false), MatchCase(#"^(?!foo)\w+$"#, "barfoo", true),
        MatchCase(#"(?<=\$)\d+"#, "cost $42", true), MatchCase(#"(?<=\$)\d+"#, "cost 42", false),
        MatchCase(#"(?<!\$)\b\d+"#, "$42", false), MatchCase(#"(?<!\$)\b\d+"#, "$42 7", true),
        MatchCase(#"(?<=^|,)b"#, "a,b", true), MatchCase(#"(?<=^|,)b"#, "ab", false),
        MatchCase(#"(?<=(\d)(\d))x\2"#, "12x2", true), MatchCase(#"(?<=(\d)(\d))x\2"#, "12x1", false),
        MatchCase(#"(?<=\1(a))b"#, "aab", true), MatchCase(#"(?<=\1(a))b"#, "cab", false),
        MatchCase(#"(?<=😀)x"#, "😀x", true), MatchCase(#"(?<=a.)x"#, "a😀x", true),
        MatchCase(#"^(?=(a+))a*b\1$"#, "aaabaaa", true), MatchCase(#"^(?=(a+?))a*b\1$"#, "aaaba", true),
        MatchCase(#"^(?=(a+))a*b\1$"#, "aaaba", false), MatchCase(#"a(?!b)"#, "ab ac", true),
        MatchCase(#"(?<=a{2,})b"#, "aab", true), MatchCase(#"(?<=a{2,})b"#, "ab", false),
        MatchCase(#"^(?:(?=(\w))\1)+$"#, "abc", true),
        // group names written with escapes
        MatchCase(#"^(?<\u0061b>x)\k<ab>$"#, "xx", true), MatchCase(#"^(?<ab>x)\k<\u{61}\u0062>$"#, "xx", true),
        MatchCase(#"^(?<\uD835\uDC9C>x)\k<𝒜>$"#, "xx", true), MatchCase(#"^(?<$_é1>x)\k<$_é1>$"#, "xy", false),
    ]

    /// Where Node 20's V8 answers differently because it tries match positions inside a surrogate
    /// pair (with `\B`, backreferences, lookbehind); ECMA-262 advances by code points with the u flag.
    static let specOverV8Cases: [(pattern: String, input: String, expected: Bool)] = [
        (#"\B"#, "b\u{1F432}a", false),
        (#"(\2\u{1F432})(.\b)"#, "\u{1F432}_", true),
        (#"(?<!(\d)\1)"#, "\u{1F432}", true),
        (#"^(?<!(\d)\1).$"#, "\u{1F432}", true),
    ]

    @Test func codePointsNotCodeUnits() throws {
        for (pattern, input, expected) in Self.specOverV8Cases {
            #expect(try ECMARegex(pattern).matches(input, stepBudget: Self.budget) == (expected ? .match : .noMatch), "\(pattern)")
        }
    }

    @Test("JSON-Schema-Test-Suite cases", arguments: suiteCases)
    func suite(_ testCase: MatchCase) throws {
        let regex = try ECMARegex(testCase.pattern)
        #expect(regex.matches(testCase.input, stepBudget: Self.budget) == (testCase.expected ? .match : .noMatch))
    }

    @Test("syntax and semantics", arguments: syntaxCases)
    func syntax(_ testCase: MatchCase) throws {
        let regex = try ECMARegex(testCase.pattern)
        #expect(regex.matches(testCase.input, stepBudget: Self.budget) == (testCase.expected ? .match : .noMatch))
    }

    /// The DFA and the Pike VM must agree wherever a DFA is built.
    @Test("DFA and Pike VM agree", arguments: suiteCases + syntaxCases)
    func automataAgree(_ testCase: MatchCase) throws {
        let regex = try ECMARegex(testCase.pattern)
        guard let pike = regex.matchesByPikeVM(testCase.input) else { return }
        #expect(pike == testCase.expected)
        #expect((regex.matches(testCase.input, stepBudget: 0) == .match) == testCase.expected)
    }

    @Test func simplePatternsGetADFA() throws {
        for pattern in [
            #"^[a-z0-9-]+$"#, #"^\d{4}-\d{2}-\d{2}$"#, #"f.*o"#, #"^(a+)+$"#, #"[0-9]{2,}"#, "^\u{1F432}*$", #"a|^b|c$"#,
            #"\bword\b"#, #"\p{L}cole"#, #"^[\p{L}\p{N}_-]+$"#, #"^[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63})*$"#,
        ] {
            #expect(try ECMARegex(pattern).usesDFA, "\(pattern)")
        }
        // too many states, a backreference, too many distinct matchers beside a property: the Pike
        // VM (or the backtracker) runs these
        for pattern in [#"(a|b)*a(a|b){12}"#, #"(a)\1"#, #"\p{L}abcdefgh"#] {
            #expect(try !ECMARegex(pattern).usesDFA, "\(pattern)")
        }
    }

    // MARK: Invalid patterns

    struct InvalidCase: Sendable, CustomTestStringConvertible {
        var pattern: String
        var offset: Int
        var message: String
        init(_ pattern: String, _ offset: Int, _ message: String) {
            self.pattern = pattern
            self.offset = offset
            self.message = message
        }
        var testDescription: String { "/\(pattern)/u throws \(message) at \(offset)" }
    }

    static let invalidCases: [InvalidCase] = [
        // the suite: format "regex" and ecmascript-regex.json
        InvalidCase(#"^(abc]"#, 5, "lone quantifier bracket"), InvalidCase(#"^(abc"#, 1, "unterminated group"), InvalidCase(#"\a"#, 0, "invalid escape"),
        InvalidCase(#"^\S(|(.|\n)*\S)\Z"#, 15, "invalid escape"),
        // groups
        InvalidCase(#"abc)"#, 3, "unmatched ')'"), InvalidCase(#"a(b(c)"#, 1, "unterminated group"),
        InvalidCase(#"(?x)"#, 0, "invalid group"), InvalidCase(#"(?i:a)"#, 0, "invalid group"),
        InvalidCase(#"(?<1a>x)"#, 3, "invalid capture group name"), InvalidCase(#"(?<>x)"#, 3, "invalid capture group name"),
        InvalidCase(#"(?<a>x)(?<a>y)"#, 10, "duplicate capture group name"),
        InvalidCase(#"(?<a>x)(?<\u0061>y)"#, 10, "duplicate capture group name"), InvalidCase(#"(?<\u0031>x)"#, 3, "invalid capture group name"),
        InvalidCase(#"(?<a\x62>x)"#, 3, "invalid capture group name"), InvalidCase(#"(?<a"#, 3, "invalid capture group name"),
        // quantifiers
        InvalidCase(#"*a"#, 0, "nothing to repeat"), InvalidCase(#"a**"#, 2, "nothing to repeat"), InvalidCase(#"a|?"#, 2, "nothing to repeat"),
        InvalidCase(#"^*"#, 0, "nothing to repeat"), InvalidCase(#"\b+"#, 0, "nothing to repeat"), InvalidCase(#"(?=a)*"#, 0, "nothing to repeat"),
        InvalidCase(#"(?<=a)?"#, 0, "nothing to repeat"), InvalidCase(#"{2}"#, 0, "nothing to repeat"),
        InvalidCase(#"a{2,1}"#, 1, "numbers out of order in {} quantifier"), InvalidCase(#"a{"#, 1, "incomplete quantifier"),
        InvalidCase(#"a{1"#, 1, "incomplete quantifier"), InvalidCase(#"a{,5}"#, 1, "incomplete quantifier"),
        InvalidCase(#"{"#, 0, "lone quantifier bracket"), InvalidCase(#"a}"#, 1, "lone quantifier bracket"),
        InvalidCase(#"]"#, 0, "lone quantifier bracket"),
        // escapes
        InvalidCase(#"\Z"#, 0, "invalid escape"), InvalidCase(#"\e"#, 0, "invalid escape"), InvalidCase(#"a\-"#, 1, "invalid escape"),
        InvalidCase(#"\_"#, 0, "invalid escape"), InvalidCase(#"\"#, 0, "invalid escape"), InvalidCase(#"\x4"#, 0, "invalid escape"),
        InvalidCase(#"\u12"#, 0, "invalid Unicode escape"), InvalidCase(#"\u{110000}"#, 0, "invalid Unicode escape"),
        InvalidCase(#"\u{}"#, 0, "invalid Unicode escape"), InvalidCase(#"\c1"#, 0, "invalid control escape"),
        InvalidCase(#"\c"#, 0, "invalid control escape"), InvalidCase(#"\00"#, 0, "invalid decimal escape"),
        InvalidCase(#"\1"#, 0, "backreference to a group that does not exist"),
        InvalidCase(#"(a)\2"#, 3, "backreference to a group that does not exist"),
        InvalidCase(#"\k<a>"#, 0, "invalid named reference"), InvalidCase(#"(?<a>x)\k<b>"#, 7, "invalid named reference"),
        InvalidCase(#"\k"#, 0, "invalid named reference"),
        // classes
        InvalidCase(#"[a"#, 0, "unterminated character class"), InvalidCase(#"[\]"#, 0, "unterminated character class"),
        InvalidCase(#"[\d-a]"#, 1, "invalid character class range"), InvalidCase(#"[a-\d]"#, 1, "invalid character class range"),
        InvalidCase(#"[z-a]"#, 1, "range out of order in character class"), InvalidCase(#"[\1]"#, 1, "invalid escape in character class"),
        InvalidCase(#"[\B]"#, 1, "invalid escape in character class"), InvalidCase(#"[\c1]"#, 1, "invalid control escape"),
        InvalidCase(#"[\z]"#, 1, "invalid escape"),
        // properties
        InvalidCase(#"\p{Foo}"#, 0, "invalid Unicode property name"), InvalidCase(#"\p{letter}"#, 0, "invalid Unicode property name"),
        InvalidCase(#"\p{L"#, 0, "invalid Unicode property name"), InvalidCase(#"\pL"#, 0, "invalid Unicode property name"),
        InvalidCase(#"\p{gc=Foo}"#, 0, "invalid Unicode property name"),
        InvalidCase(#"x\p{Script=Tamil}"#, 1, "Unicode property Script=Tamil is not supported by this engine"),
    ]

    @Test("invalid patterns throw with an offset", arguments: invalidCases)
    func invalid(_ testCase: InvalidCase) {
        #expect(throws: ECMARegexError.self) { try ECMARegex(testCase.pattern) }
        do {
            _ = try ECMARegex(testCase.pattern)
        } catch {
            #expect(error.offset == testCase.offset)
            #expect(error.message.hasPrefix(testCase.message), "\(error.message)")
        }
    }

    @Test func syntaxCheckWithoutCompiling() {
        #expect(ECMARegex.isValidSyntax(#"([abc])+\s+$"#))
        #expect(ECMARegex.isValidSyntax("a{100001}"))  // valid ECMA-262, only too large to compile
        #expect(!ECMARegex.isValidSyntax("^(abc]"))
        #expect(!ECMARegex.isValidSyntax(#"\a"#))
        for testCase in Self.invalidCases {
            #expect(!ECMARegex.isValidSyntax(testCase.pattern), "\(testCase.pattern)")
        }
    }

    @Test func errorDescriptionNamesTheOffset() {
        #expect(throws: ECMARegexError.unterminatedGroup(at: 3)) { try ECMARegex("abc(def") }
        do {
            _ = try ECMARegex("abc(def")
        } catch {
            #expect(error.description == "unterminated group at 3")
        }
    }

    // MARK: Linear time and the step budget

    @Test("catastrophic patterns stay linear", arguments: [
        (#"^(a+)+$"#, String(repeating: "a", count: 50) + "b"),
        (#"(a|a)*b"#, String(repeating: "a", count: 5_000)),
        (#"(x+x+)+y"#, String(repeating: "x", count: 5_000)),
        (#"^(a|aa)*$"#, String(repeating: "a", count: 5_000) + "!"),
        (#"^(\w+\s?)*$"#, String(repeating: "word ", count: 1_000) + "!"),
        (#"^((a{1,10}){1,10}){1,10}$"#, String(repeating: "a", count: 200) + "b"),
        (#"(.*a){12}"#, String(repeating: "a", count: 11) + String(repeating: "b", count: 2_000)),
    ])
    func linear(_ pattern: String, _ input: String) throws {
        let regex = try ECMARegex(pattern)
        #expect(regex.isLinear)
        let clock = ContinuousClock()
        var outcome = ECMARegex.Outcome.match
        let elapsed = clock.measure { outcome = regex.matches(input, stepBudget: 1) }
        #expect(outcome == .noMatch)
        #expect(elapsed < .seconds(2), "took \(elapsed)")
        // the Pike VM too, whether or not a DFA was built (a backtracker would take years here)
        var pike: Bool?
        let pikeElapsed = clock.measure { pike = regex.matchesByPikeVM(input) }
        #expect(pike == false)
        #expect(pikeElapsed < .seconds(2), "Pike VM took \(pikeElapsed)")
    }

    @Test func linearPatternsMatchLongInputs() throws {
        let long = String(repeating: "ab", count: 50_000)
        #expect(try ECMARegex(#"^(ab)+$"#).matches(long, stepBudget: 1) == .match)
        #expect(try ECMARegex(#"^(a|b)*c$"#).matches(long, stepBudget: 1) == .noMatch)
        #expect(try ECMARegex(#"ba$"#).matches(long + "a", stepBudget: 1) == .match)
    }

    @Test func backtrackingStopsAtTheBudget() throws {
        let exponential = try ECMARegex(#"^(a+)+\1b$"#)
        #expect(!exponential.isLinear)
        #expect(exponential.matches(String(repeating: "a", count: 40), stepBudget: 100_000) == .budgetExceeded)
        #expect(exponential.matches("aab", stepBudget: 100_000) == .match)
        let lookahead = try ECMARegex(#"^(?=(a+)+c)"#)
        #expect(lookahead.matches(String(repeating: "a", count: 40), stepBudget: 100_000) == .budgetExceeded)
        #expect(lookahead.matches("aac", stepBudget: 100_000) == .match)
        // a cheap backreference pattern over a long input stays within a modest budget
        let repeated = try ECMARegex(#"(\w)\1"#)
        #expect(repeated.matches(String(repeating: "ab", count: 10_000) + "cc", stepBudget: 1_000_000) == .match)
        #expect(repeated.matches("abcc", stepBudget: 3) == .budgetExceeded)
    }

    @Test func linearPatternsIgnoreTheBudget() throws {
        #expect(try ECMARegex(#"^[a-z]+$"#).matches(String(repeating: "a", count: 1_000), stepBudget: 0) == .match)
    }

    // MARK: Program size

    @Test func countedRepetitionIsBounded() throws {
        #expect(try ECMARegex("^a{1000}$").matches(String(repeating: "a", count: 1_000), stepBudget: 1) == .match)
        #expect(try ECMARegex("^a{1000}$").matches(String(repeating: "a", count: 999), stepBudget: 1) == .noMatch)
        #expect(try ECMARegex("^(a{1,100}){10}$").programSize < ECMARegexProgram.instructionLimit)
        for pattern in ["a{100001}", "(a{1000}){1000}", "((a{100}){100}){100}", "a{2147483647}", "a{99999999999999999999}", "[a-z]{0,200000}"] {
            #expect(throws: ECMARegexError.programTooLarge(limit: ECMARegexProgram.instructionLimit, at: 0)) {
                try ECMARegex(pattern)
            }
        }
    }

    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "(?:", count: 200) + "a" + String(repeating: ")*", count: 200)
        #expect(try ECMARegex("^" + deep + "$").matches("aaa", stepBudget: 1) == .match)
        let tooDeep = String(repeating: "(", count: 251) + String(repeating: ")", count: 251)
        #expect(throws: ECMARegexError.nestedTooDeeply(limit: 250, at: 250)) { try ECMARegex(tooDeep) }
    }

    // MARK: Sharing

    @Test func aRegexIsSharedAcrossTasks() async throws {
        let regex = try ECMARegex(#"^(?<word>\w+)-\k<word>$"#)
        let results = await withTaskGroup(of: ECMARegex.Outcome.self) { group in
            for index in 0..<8 {
                group.addTask { regex.matches("ab\(index)-ab\(index)", stepBudget: 10_000) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: .match, count: 8))
    }
}
