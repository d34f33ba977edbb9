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

/// JSON pointer helpers.
enum JSONPointer {
    static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacing("~", with: "~0").replacing("/", with: "~1")
    }

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
    var depth = 0
    var scope: [Int32] = []
    var keywordPath: [PathSegment] = []
    var instancePath: [PathSegment] = []
    /// Where each schema being evaluated is written, and where its part of `keywordPath` starts.
    var frames: [(absolute: SchemaLocation, start: Int)] = []
    var errors: [JSONSchemaOutput.Unit] = []

    init(program: SchemaProgram, collecting: Bool) {
        self.program = program
        self.collecting = collecting
        self.maximumDepth = program.maximumEvaluationDepth
        self.usesDynamicScope = program.usesDynamicScope
        self.regexStepBudget = program.regexStepBudget
    }

    /// Records a failing keyword at the current place.
    mutating func report(_ keyword: String, _ message: String) {
        guard collecting else { return }
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

    init(nodes: [SchemaNode], resources: [ResourceInfo], root: SchemaNode, usesDynamicScope: Bool, regexStepBudget: Int, maximumEvaluationDepth: Int) {
        self.nodes = nodes
        self.references = nodes.map(NodeReference.init)
        self.resources = resources
        self.root = root
        self.usesDynamicScope = usesDynamicScope
        self.regexStepBudget = regexStepBudget
        self.maximumEvaluationDepth = maximumEvaluationDepth
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
