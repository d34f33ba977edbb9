import APICheckJSON

/// What a keyword's compile function sees: the schema object it sits in, where that is, the
/// base URI and dialect in effect, and its own name and value.
struct KeywordSite {
    let object: JSONValue
    let members: [JSONMember]
    let location: JSONSchemaRegistry.Location
    let baseURI: String
    let dialect: Dialect
    let vocabularies: Set<Vocabulary>
    let resourceURI: String
    let resourcePointer: String
    let depth: Int
    /// The compiled schema this keyword belongs to (its index in the program).
    let nodeIndex: Int32
    private(set) var keyword: String = ""
    private(set) var value: JSONValue = .null
    /// A JSON pointer to this keyword in its document.
    private(set) var keywordPointer = ""

    /// Points the site at one keyword of the schema object.
    mutating func select(_ keyword: String, _ value: JSONValue) {
        self.keyword = keyword
        self.value = value
        keywordPointer = location.pointer + "/" + JSONPointer.escape(keyword)
    }

    /// A sibling keyword's value, when the dialect and vocabularies know it.
    func sibling(_ name: String) -> JSONValue? {
        guard let definition = dialect.keywords[name], SchemaCompiler.isActive(definition, vocabularies) else { return nil }
        return object[name]
    }

    /// True when the format-assertion vocabulary is in force.
    var formatAsserts: Bool { vocabularies.contains(.formatAssertion) }
}

/// Compiles schema documents into a `SchemaProgram`: each schema once, by location; `$ref`
/// targets through a work list (so a chain of references does not deepen the recursion and a
/// cycle is just an index); then a check that no cycle of references can be evaluated forever
/// without consuming the instance.
struct SchemaCompiler {
    var registry: JSONSchemaRegistry
    let options: JSONSchemaOptions
    private(set) var nodes: [SchemaNode?] = []
    private var indexByLocation: [JSONSchemaRegistry.Location: Int32] = [:]
    private var pending: [(index: Int32, target: JSONSchemaRegistry.Target)] = []
    /// Same-instance edges (in-place applicators and `$ref`s), for the cycle check.
    private var edges: [[(to: Int32, location: JSONSchemaRegistry.Location)]] = []
    private var resources: [ResourceInfo] = []
    private var resourceIndexByURI: [String: Int32] = [:]
    private var vocabularyCache: [String: Set<Vocabulary>] = [:]
    private var resolvedReferences: [String: JSONSchemaRegistry.Target] = [:]
    private(set) var usesDynamicScope = false
    /// Patterns compiled so far, by source: one schema often repeats a pattern many times.
    private var regexCache: [String: ECMARegex] = [:]
    /// `compiledSize` summed over `regexCache`, against `options.regexSizeBudget`.
    private var regexSize = 0
    /// `pattern`s left unchecked under `JSONSchemaOptions.UnusablePatterns.ignore`, located.
    private(set) var ignoredPatterns: [JSONSchemaError] = []

    init(registry: JSONSchemaRegistry, options: JSONSchemaOptions) {
        self.registry = registry
        self.options = options
    }

    static func isActive(_ definition: KeywordDefinition, _ vocabularies: Set<Vocabulary>) -> Bool {
        vocabularies.contains(definition.vocabulary) || (definition.vocabulary == .formatAnnotation && vocabularies.contains(.formatAssertion))
    }

    /// Compiles the schema `target` and everything it refers to.
    mutating func compileProgram(root target: JSONSchemaRegistry.Target) throws -> SchemaProgram {
        let rootIndex = try index(for: target)
        while let next = pending.popLast() {
            if nodes[Int(next.index)] == nil {
                let node = try compile(next.target, depth: 0, reserved: next.index)
                nodes[Int(next.index)] = node
            }
        }
        try checkCycles()
        let compiled = nodes.map { $0! }
        return SchemaProgram(nodes: compiled, resources: resources, root: compiled[Int(rootIndex)], usesDynamicScope: usesDynamicScope,
                             regexStepBudget: options.regexStepBudget, maximumEvaluationDepth: options.maximumEvaluationDepth,
                             maximumErrors: options.maximumErrors)
    }

    /// The index a location compiles to, queueing it when new.
    private mutating func index(for target: JSONSchemaRegistry.Target) throws -> Int32 {
        if let existing = indexByLocation[target.location] { return existing }
        let index = reserve(target.location)
        pending.append((index, target))
        return index
    }

    private mutating func reserve(_ location: JSONSchemaRegistry.Location) -> Int32 {
        let index = Int32(nodes.count)
        nodes.append(nil)
        edges.append([])
        indexByLocation[location] = index
        return index
    }

    /// Compiles a subschema of `site` found at `tokens` below its keyword (`["0"]` in `allOf`).
    /// `inPlace`: it applies to the same instance (for the cycle check).
    mutating func subschema(_ site: KeywordSite, _ tokens: [String], _ value: JSONValue, inPlace: Bool) throws -> SchemaNode {
        var pointer = site.keywordPointer
        for token in tokens { pointer += "/" + JSONPointer.escape(token) }
        let location = JSONSchemaRegistry.Location(document: site.location.document, pointer: pointer)
        let target = JSONSchemaRegistry.Target(location: location, value: value, baseURI: site.baseURI, draft: site.dialect.draft,
                                                resourceURI: site.resourceURI, resourcePointer: site.resourcePointer)
        let index: Int32
        if let existing = indexByLocation[location] {
            index = existing
        } else {
            index = reserve(location)
        }
        if inPlace { edges[Int(site.nodeIndex)].append((index, JSONSchemaRegistry.Location(document: site.location.document, pointer: site.keywordPointer))) }
        if let node = nodes[Int(index)] { return node }
        let node = try compile(target, depth: site.depth + 1, reserved: index, inheritedVocabularies: site.vocabularies)
        nodes[Int(index)] = node
        return node
    }

    /// Resolves a reference written at `site`'s keyword; returns the target's index and the
    /// resource containing it (for the dynamic scope), and records the same-instance edge.
    mutating func reference(_ site: KeywordSite, _ reference: String, recordEdge: Bool = true) throws -> (index: Int32, resource: Int32, target: JSONSchemaRegistry.Target) {
        let absolute = URIReference.resolve(reference, against: site.baseURI)
        var found: JSONSchemaRegistry.Target?
        do {
            // Many references name the same few schemas: look each URI up once.
            found = resolvedReferences[absolute]
            if found == nil {
                found = try registry.lookup(absolute, contextDraft: site.dialect.draft)
                resolvedReferences[absolute] = found
            }
        } catch {
            throw located(site, site.keywordPointer, JSONSchemaError.unresolved(reference, uri: absolute, at: site.keywordPointer), extra: ": \(error)")
        }
        guard let target = found else {
            // A missing document is named without fragment (that is what nobody could retrieve).
            let document = URIReference.stripFragment(absolute)
            let missing = registry.documentValue(for: document) == nil ? document : absolute
            throw located(site, site.keywordPointer, JSONSchemaError.unresolved(reference, uri: missing, at: site.keywordPointer))
        }
        let index = try index(for: target)
        if recordEdge { edges[Int(site.nodeIndex)].append((index, JSONSchemaRegistry.Location(document: site.location.document, pointer: site.keywordPointer))) }
        let resource = target.location.pointer == target.resourcePointer ? -1 : resourceIndex(for: target.resourceURI)
        return (index, resource, target)
    }

    /// The resource index for a URI, creating its entry (root compiled lazily) when new.
    mutating func resourceIndex(for uri: String) -> Int32 {
        if let existing = resourceIndexByURI[uri] { return existing }
        let index = Int32(resources.count)
        resources.append(ResourceInfo(uri: uri, root: -1, dynamicAnchors: [:], recursiveAnchor: false))
        resourceIndexByURI[uri] = index
        if let root = try? registry.lookup(uri, contextDraft: options.defaultDraft) {
            resources[Int(index)].root = (try? self.index(for: root)) ?? -1
            if case .bool(true)? = root.value["$recursiveAnchor"] { resources[Int(index)].recursiveAnchor = true }
            for name in registry.dynamicAnchorNames[uri] ?? [] {
                if let anchor = try? registry.lookup(uri + "#" + name, contextDraft: root.draft), let target = try? self.index(for: anchor) {
                    resources[Int(index)].dynamicAnchors[name] = target
                }
            }
        }
        return index
    }

    mutating func noteDynamicScope() { usesDynamicScope = true }

    /// The compiled pattern for `source`, from the cache or compiled now and counted against the
    /// schema's budget. Throws the regex engine's error (the caller locates it), or a message
    /// when the budget is exceeded.
    mutating func compiledRegex(_ source: String) throws(ECMARegexError) -> Result<ECMARegex, RegexBudgetExceeded> {
        if let cached = regexCache[source] { return .success(cached) }
        let regex = try ECMARegex(source)
        regexSize += regex.compiledSize
        guard regexSize <= options.regexSizeBudget else {
            return .failure(RegexBudgetExceeded(total: regexSize, budget: options.regexSizeBudget))
        }
        regexCache[source] = regex
        return .success(regex)
    }

    mutating func ignorePattern(_ warning: JSONSchemaError) {
        ignoredPatterns.append(warning)
    }

    /// The schema's patterns together compile to more than `JSONSchemaOptions.regexSizeBudget`.
    struct RegexBudgetExceeded: Error {
        var total: Int
        var budget: Int
    }

    /// Compiles the schema at `target` into the reserved slot's node.
    private mutating func compile(_ target: JSONSchemaRegistry.Target, depth: Int, reserved: Int32, inheritedVocabularies: Set<Vocabulary>? = nil) throws -> SchemaNode {
        var baseURI = target.baseURI
        var draft = target.draft
        var resourceURI = target.resourceURI
        var resourcePointer = target.resourcePointer
        let value = target.value
        if depth > options.maximumSchemaDepth {
            throw located(target.location, "schemas nest deeper than \(options.maximumSchemaDepth) levels")
        }
        var isResourceRoot = target.location.pointer == target.resourcePointer
        if case .object = value {
            let dialect = draft.dialect
            if let id = dialect.id(of: value), !(dialect.anchorsInID && id.hasPrefix("#")), !(dialect.refOverridesSiblings && value["$ref"] != nil) {
                let resolved = URIReference.stripFragment(URIReference.resolve(id, against: baseURI))
                // At a resource's root the registry has already applied its `$id`.
                if target.location.pointer != target.resourcePointer {
                    baseURI = resolved
                    resourceURI = resolved
                    resourcePointer = target.location.pointer
                    isResourceRoot = true
                    if case .string(let schema)? = value["$schema"], let embedded = registry.draftOfMetaSchema(schema) ?? JSONSchemaDraft(metaSchemaURI: schema) {
                        draft = embedded
                    }
                }
            }
        }
        let dialect = draft.dialect
        var vocabularies = inheritedVocabularies ?? dialect.vocabularies
        if isResourceRoot || inheritedVocabularies == nil {
            // The vocabularies are those of the resource's meta-schema.
            let resourceRoot = isResourceRoot ? value : registry.documents[target.location.document].value.value(at: resourcePointer)
            vocabularies = dialect.vocabularies
            if case .string(let schema)? = resourceRoot?["$schema"] { vocabularies = self.vocabularies(metaSchema: schema, dialect: dialect) }
        }
        // Where the schema is written, kept as shared parts (joined only for error output).
        let pointerInResource = target.location.pointer.hasPrefix(resourcePointer) ? resourcePointer.utf8.count : 0
        let absoluteLocation = SchemaLocation(resourceURI: resourceURI, pointer: target.location.pointer, resourcePrefixLength: pointerInResource)
        let resource: Int32 = isResourceRoot ? resourceIndex(for: resourceURI) : -1

        switch value {
        case .bool(true):
            return SchemaNode(keywords: [], unevaluated: [], absoluteLocation: absoluteLocation, resource: resource)
        case .bool(false):
            return SchemaNode(keywords: [FalseSchemaKeyword()], unevaluated: [], absoluteLocation: absoluteLocation, resource: resource)
        case .object(let members):
            var site = KeywordSite(object: value, members: members, location: target.location, baseURI: baseURI, dialect: dialect,
                                  vocabularies: vocabularies, resourceURI: resourceURI, resourcePointer: resourcePointer, depth: depth, nodeIndex: reserved)
            var keywords: [KeywordValidator] = []
            var unevaluated: [any UnevaluatedKeyword] = []
            let onlyRef = dialect.refOverridesSiblings && value["$ref"] != nil
            for member in members {
                if onlyRef && member.key != "$ref" { continue }
                guard let definition = dialect.keywords[member.key], let compileKeyword = definition.compile, Self.isActive(definition, vocabularies) else { continue }
                site.select(member.key, member.value)
                for compiled in try compileKeyword(&self, site) {
                    switch compiled {
                    case .keyword(let keyword): keywords.append(keyword)
                    case .unevaluated(let keyword): unevaluated.append(keyword)
                    }
                }
            }
            keywords = NumberChecksKeyword.fold(PropertiesKeyword.fold(keywords))
            // Cheap checks first: a wrong type fails before any subschema runs.
            if let typeIndex = keywords.firstIndex(where: { $0 is TypeKeyword }), typeIndex > 0 {
                keywords.insert(keywords.remove(at: typeIndex), at: 0)
            }
            return SchemaNode(keywords: keywords, unevaluated: unevaluated, absoluteLocation: absoluteLocation, resource: resource)
        default:
            throw located(target.location, "a schema must be an object or a boolean, found \(value.schemaTypeDescription)")
        }
    }

    /// The vocabularies a meta-schema's `$vocabulary` turns on (all of the draft's when it has none).
    private mutating func vocabularies(metaSchema uri: String, dialect: Dialect) -> Set<Vocabulary> {
        if JSONSchemaDraft(metaSchemaURI: uri) != nil { return dialect.vocabularies }
        if let cached = vocabularyCache[uri] { return cached }
        var result = dialect.vocabularies
        if let meta = try? registry.lookup(URIReference.stripFragment(uri), contextDraft: dialect.draft), case .object(let declared)? = meta.value["$vocabulary"] {
            result = [.core]
            for entry in declared {
                if let vocabulary = Vocabulary(uri: entry.key) { result.insert(vocabulary) }
            }
        }
        vocabularyCache[uri] = result
        return result
    }

    /// Fails when some schema can reach itself through in-place applicators and `$ref`s alone:
    /// evaluating it would never end (`{"$ref": "#"}`, `a → b → a` in `$defs`).
    private func checkCycles() throws {
        var state = [UInt8](repeating: 0, count: nodes.count)  // 0 new, 1 on the path, 2 done
        for start in 0..<nodes.count where state[start] == 0 {
            var stack: [(node: Int, edge: Int)] = [(start, 0)]
            state[start] = 1
            while let top = stack.last {
                let outgoing = edges[top.node]
                if top.edge < outgoing.count {
                    stack[stack.count - 1].edge += 1
                    let next = Int(outgoing[top.edge].to)
                    if state[next] == 1 {
                        throw located(outgoing[top.edge].location, "this reference closes a cycle that never reaches into the instance: evaluating it would never end")
                    }
                    if state[next] == 0 {
                        state[next] = 1
                        stack.append((next, 0))
                    }
                } else {
                    state[top.node] = 2
                    stack.removeLast()
                }
            }
        }
    }

    /// A compile error at a place, with file/line/column when the document has positions.
    func located(_ location: JSONSchemaRegistry.Location, _ message: String) -> JSONSchemaError {
        let (file, position) = registry.position(document: location.document, pointer: location.pointer)
        return JSONSchemaError(message: message, keywordLocation: location.pointer, file: file, line: position?.line, column: position?.column)
    }

    func located(_ site: KeywordSite, _ pointer: String, _ error: JSONSchemaError, extra: String = "") -> JSONSchemaError {
        var error = error
        let (file, position) = registry.position(document: site.location.document, pointer: pointer)
        error.file = file
        error.line = position?.line
        error.column = position?.column
        error.message += extra
        return error
    }

    /// An error about the keyword at `site`.
    func invalid(_ site: KeywordSite, _ message: String) -> JSONSchemaError {
        located(JSONSchemaRegistry.Location(document: site.location.document, pointer: site.keywordPointer), message)
    }
}
