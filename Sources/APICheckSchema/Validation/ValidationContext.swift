import APICheckJSON

/// One step of a keyword path or an instance path.
enum PathSegment: Sendable {
    case key(String)
    case index(Int)

    /// The segment as a JSON pointer token (`~` → `~0`, `/` → `~1`).
    var token: String {
        switch self {
        case .key(let key): return JSONPointer.escape(key)
        case .index(let index): return String(index)
        }
    }
}

extension JSONPointer {
    static func string(_ segments: ArraySlice<PathSegment>) -> String {
        var result = ""
        for segment in segments {
            result += "/"
            result += segment.token
        }
        return result
    }
}

/// The state of one validation, passed down by `inout`: the program (schemas by index), the
/// evaluation depth, the dynamic scope (only kept when some `$dynamicRef`/`$recursiveRef` needs
/// it) and, when collecting errors, the keyword and instance paths (pushed and popped as the
/// evaluation goes, turned into strings only when an error is made).
struct ValidationContext {
    let program: SchemaProgram
    let collecting: Bool
    /// Copied from the program so the hot path reads plain values.
    let maximumDepth: Int
    let usesDynamicScope: Bool
    let regexStepBudget: Int
    let maximumErrors: Int
    var depth = 0
    var scope: [Int32] = []
    var keywordPath: [PathSegment] = []
    var instancePath: [PathSegment] = []
    /// Where each schema being evaluated is written, and where its part of `keywordPath` starts.
    var frames: [(absolute: SchemaLocation, start: Int)] = []
    var errors: [JSONSchemaOutput.Unit] = []
    /// The first evaluation limit reached, if any. Sticky: once set, the instance is invalid as a
    /// whole (`JSONSchema.isValid`/`validate` check it), whatever `not`, `if` or `anyOf` made of
    /// the failing part, so that a limit can never turn into "valid".
    var limit: EvaluationLimit?
    /// Backtracking steps left for all of this validation's pattern matches together.
    var regexStepsLeft: Int

    init(program: SchemaProgram, collecting: Bool) {
        self.program = program
        self.collecting = collecting
        self.maximumDepth = program.maximumEvaluationDepth
        self.usesDynamicScope = program.usesDynamicScope
        self.regexStepBudget = program.regexStepBudget
        self.maximumErrors = program.maximumErrors
        self.regexStepsLeft = program.regexTotalStepBudget
    }

    /// Records that a limit was reached at the current place (the first one is kept).
    mutating func reachLimit(_ kind: EvaluationLimit.Kind, keyword: String) {
        guard limit == nil else { return }
        var keywordLocation = ""
        var instanceLocation = ""
        if collecting {
            keywordLocation = JSONPointer.string(keywordPath[...]) + (keyword.isEmpty ? "" : "/" + JSONPointer.escape(keyword))
            instanceLocation = JSONPointer.string(instancePath[...])
        }
        limit = EvaluationLimit(kind: kind, keywordLocation: keywordLocation, instanceLocation: instanceLocation)
    }

    /// Searches `string` with `regex` within the per-match budget and what is left of the
    /// validation's total; an overrun is recorded as a limit (`keyword` says where).
    mutating func match(_ regex: ECMARegex, _ string: String, keyword: String) -> ECMARegex.Outcome {
        let budget = max(0, min(regexStepBudget, regexStepsLeft))
        var steps = 0
        let outcome = regex.matches(string, stepBudget: budget, steps: &steps)
        regexStepsLeft -= steps
        if outcome == .budgetExceeded {
            reachLimit(budget < regexStepBudget ? .regexStepsInAll(program.regexTotalStepBudget) : .regexSteps(regexStepBudget), keyword: keyword)
        }
        return outcome
    }

    /// Adds the error that says a limit made the instance invalid (even past `maximumErrors`,
    /// replacing the last error then: it is the one that explains the others).
    mutating func reportLimit(_ limit: EvaluationLimit) {
        let unit = JSONSchemaOutput.Unit(
            keywordLocation: "", absoluteKeywordLocation: nil, instanceLocation: "", error: limit.message, keyword: EvaluationLimit.keyword)
        if errors.count >= maximumErrors { errors.removeLast() }
        errors.append(unit)
    }

    /// Records a failing keyword at the current place.
    mutating func report(_ keyword: String, _ message: String) {
        guard collecting, errors.count < maximumErrors else { return }
        // A `false` schema reports at its own location (keyword "").
        let suffix = keyword.isEmpty ? "" : "/" + JSONPointer.escape(keyword)
        let keywordLocation = JSONPointer.string(keywordPath[...]) + suffix
        var absolute: String? = nil
        // Only a schema with a base URI has an absolute location (`#/…` alone says nothing more).
        if let frame = frames.last, !frame.absolute.resourceURI.isEmpty {
            absolute = frame.absolute.text + JSONPointer.string(keywordPath[frame.start...]) + suffix
        }
        errors.append(JSONSchemaOutput.Unit(
            keywordLocation: keywordLocation, absoluteKeywordLocation: absolute,
            instanceLocation: JSONPointer.string(instancePath[...]), error: message, keyword: keyword.isEmpty ? "false" : keyword))
    }

    @inline(__always) mutating func pushKeyword(_ keyword: String) { if collecting { keywordPath.append(.key(keyword)) } }
    @inline(__always) mutating func pushKeyword(_ keyword: String, _ child: PathSegment) {
        if collecting {
            keywordPath.append(.key(keyword))
            keywordPath.append(child)
        }
    }
    @inline(__always) mutating func popKeyword(_ count: Int = 1) { if collecting { keywordPath.removeLast(count) } }
    @inline(__always) mutating func pushInstance(_ segment: PathSegment) { if collecting { instancePath.append(segment) } }
    @inline(__always) mutating func popInstance() { if collecting { instancePath.removeLast() } }
}

/// A limit that stopped part of an evaluation: nesting (`maximumEvaluationDepth`), a pattern's
/// backtracking steps (`regexStepBudget` per match, ten times that per validation) or a
/// `multipleOf` long division (`DecimalNumber.longDivisionWorkLimit`).
struct EvaluationLimit: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case depth(Int)
        case regexSteps(Int)
        case regexStepsInAll(Int)
        case division(Int)
    }

    /// The keyword the output names for it: a place in the schema would let a failed `anyOf` hide it.
    static let keyword = "evaluationLimit"

    var kind: Kind
    /// Where it was reached (empty when found without collecting errors).
    var keywordLocation: String
    var instanceLocation: String

    var message: String {
        let reason: String
        switch kind {
        case .depth(let limit): reason = "the schema or instance is too deep (over \(limit) nested schema evaluations)"
        case .regexSteps(let limit): reason = "a pattern is too costly to evaluate (over \(limit) backtracking steps)"
        case .regexStepsInAll(let limit): reason = "the patterns are too costly to evaluate (over \(limit) backtracking steps in all)"
        case .division(let limit): reason = "a \"multipleOf\" division is too costly to evaluate (over \(limit) digit steps)"
        }
        return "evaluation limit reached at #\(keywordLocation) (instance #\(instanceLocation)): \(reason)"
    }
}

/// Everything a validation reads: compiled schemas by index (`$ref`s point here), the schema
/// resources for the dynamic scope, and the options that matter while validating.
final class SchemaProgram: Sendable {
    let nodes: [SchemaNode]
    /// `nodes` for the hot path (`$ref`), called without retain/release.
    let references: [NodeReference]
    let resources: [ResourceInfo]
    let root: SchemaNode
    let usesDynamicScope: Bool
    let regexStepBudget: Int
    let maximumEvaluationDepth: Int
    let maximumErrors: Int
    /// Backtracking steps all pattern matches of one validation may take together.
    let regexTotalStepBudget: Int

    init(nodes: [SchemaNode], resources: [ResourceInfo], root: SchemaNode, usesDynamicScope: Bool, regexStepBudget: Int, maximumEvaluationDepth: Int,
         maximumErrors: Int) {
        self.nodes = nodes
        self.references = nodes.map(NodeReference.init)
        self.resources = resources
        self.root = root
        self.usesDynamicScope = usesDynamicScope
        self.regexStepBudget = regexStepBudget
        self.maximumEvaluationDepth = maximumEvaluationDepth
        self.maximumErrors = max(1, maximumErrors)
        let (total, overflow) = regexStepBudget.multipliedReportingOverflow(by: 10)
        self.regexTotalStepBudget = overflow ? Int.max : total
    }
}

/// A schema resource (a schema with an `$id`, or a document's root) as the dynamic scope sees it.
struct ResourceInfo: Sendable {
    var uri: String
    /// The resource's root schema.
    var root: Int32
    /// `$dynamicAnchor` names → schema index.
    var dynamicAnchors: [String: Int32]
    /// 2019-09: `"$recursiveAnchor": true` at the resource root.
    var recursiveAnchor: Bool
}
