import APICheckJSON

/// Schema documents by absolute URI, with the resources (`$id`/`id`) and anchors (`$anchor`,
/// `$dynamicAnchor`, draft 4-7 `"#name"` ids) they contain.
///
/// The meta-schemas of every draft (2019-09 and 2020-12 with their vocabularies) are always
/// present without being added. A URI nobody added goes to `retrieve` at compile time; without
/// an answer the compile fails with `JSONSchemaError.unresolvedReference`.
///
/// ```swift
/// var registry = JSONSchemaRegistry()
/// try registry.add(commonNode, uri: "https://example.com/common.json", file: "common.json")
/// let schema = try JSONSchema(movieNode, file: "movie.json", baseURI: "https://example.com/movie.json", registry: registry)
/// ```
public struct JSONSchemaRegistry: Sendable {
    struct Document: Sendable {
        var uri: String
        var value: JSONValue
        var node: JSONNode?
        var file: String?
        /// As given to `add` or read from a standard `$schema`; `nil` until indexed otherwise.
        var draft: JSONSchemaDraft?
        var indexed: Bool
    }

    /// A place in a document: a schema resource's root, an anchor, or any subschema.
    struct Location: Sendable, Hashable {
        var document: Int
        var pointer: String
    }

    /// A schema resource: where its root is and in which draft it is written.
    struct Resource: Sendable {
        var location: Location
        var draft: JSONSchemaDraft
        /// The resource's own URI (its `$id`), which a document's retrieval URI may differ from.
        var canonicalURI: String
    }

    struct Anchor: Sendable {
        var location: Location
        /// The URI of the resource the anchor belongs to.
        var resourceURI: String
        var dynamic: Bool
    }

    private(set) var documents: [Document] = []
    private(set) var resources: [String: Resource] = [:]
    private(set) var anchors: [String: Anchor] = [:]
    /// Resource URI → its `$dynamicAnchor` names.
    private(set) var dynamicAnchorNames: [String: [String]] = [:]

    /// Called at compile time for a URI not in the registry (a file or the network: the caller
    /// decides, e.g. the CLI refuses other hosts unless allowed). `nil` = unresolved.
    public var retrieve: (@Sendable (String) throws -> JSONValue?)?

    /// An empty registry (the built-in meta-schemas are always there).
    public init() {}

    /// Adds a document read with positions, so errors inside it are located (`file:line:col`).
    /// Its embedded `$id` resources and anchors are indexed too.
    public mutating func add(_ document: JSONNode, uri: String, file: String? = nil, draft: JSONSchemaDraft? = nil) throws(JSONSchemaError) {
        _ = try addDocument(document.value, node: document, uri: uri, file: file, draft: draft)
    }

    /// Adds a document (and its embedded resources and anchors).
    public mutating func add(_ document: JSONValue, uri: String, draft: JSONSchemaDraft? = nil) throws(JSONSchemaError) {
        _ = try addDocument(document, node: nil, uri: uri, file: nil, draft: draft)
    }

    /// Adds a document and returns its index; indexes it now when its draft is known.
    mutating func addDocument(_ value: JSONValue, node: JSONNode?, uri: String, file: String?, draft: JSONSchemaDraft?) throws(JSONSchemaError) -> Int {
        let uri = URIReference.stripFragment(uri)
        let standard: JSONSchemaDraft? = {
            if case .string(let schema)? = value["$schema"] { return JSONSchemaDraft(metaSchemaURI: schema) }
            return nil
        }()
        documents.append(Document(uri: uri, value: value, node: node, file: file, draft: draft ?? standard, indexed: false))
        let index = documents.count - 1
        if let known = draft ?? standard { self.index(document: index, draft: known) }
        return index
    }

    /// Indexes every document added without a known draft, reading it as `draft` (the draft of
    /// the schema that refers to it, as the test suite's remotes expect) unless its `$schema`
    /// names a meta-schema that leads to a known draft.
    mutating func indexPending(draft: JSONSchemaDraft) {
        for index in documents.indices where !documents[index].indexed {
            var documentDraft = draft
            if case .string(let schema)? = documents[index].value["$schema"], let found = draftOfMetaSchema(schema) { documentDraft = found }
            documents[index].draft = documentDraft
            self.index(document: index, draft: documentDraft)
        }
    }

    /// The draft a (possibly custom) meta-schema URI leads to, following `$schema` a few steps.
    func draftOfMetaSchema(_ uri: String) -> JSONSchemaDraft? {
        var uri = uri
        for _ in 0..<8 {
            if let draft = JSONSchemaDraft(metaSchemaURI: uri) { return draft }
            let key = URIReference.stripFragment(uri)
            guard let document = documentValue(for: key), case .string(let next)? = document["$schema"], next != uri else { return nil }
            uri = next
        }
        return nil
    }

    /// A document's value by URI among those added, indexed resources and the built-ins.
    func documentValue(for uri: String) -> JSONValue? {
        if let resource = resources[uri] { return documents[resource.location.document].value.value(at: resource.location.pointer) }
        if let document = documents.first(where: { $0.uri == uri }) { return document.value }
        return MetaSchemas.builtIn[uri]
    }

    private mutating func index(document: Int, draft: JSONSchemaDraft) {
        documents[document].indexed = true
        let uri = documents[document].uri
        resources[uri] = Resource(location: Location(document: document, pointer: ""), draft: draft, canonicalURI: uri)
        var work: [(value: JSONValue, pointer: String, base: String, draft: JSONSchemaDraft, isRoot: Bool)] = [
            (documents[document].value, "", uri, draft, true),
        ]
        // A work list, not recursion: a deep document cannot exhaust the stack here.
        while let item = work.popLast() {
            guard case .object(let members) = item.value else { continue }
            var base = item.base
            var draft = item.draft
            let location = Location(document: document, pointer: item.pointer)
            if !item.isRoot, case .string(let schema)? = item.value["$schema"], let embedded = JSONSchemaDraft(metaSchemaURI: schema),
                embedded.dialect.id(of: item.value) != nil
            {
                draft = embedded
            }
            let dialect = draft.dialect
            if let id = dialect.id(of: item.value), !(dialect.refOverridesSiblings && item.value["$ref"] != nil) {
                if dialect.anchorsInID, id.hasPrefix("#") {
                    anchors[base + id] = Anchor(location: location, resourceURI: base, dynamic: false)
                } else {
                    let resolved = URIReference.resolve(id, against: base)
                    let resourceURI = URIReference.stripFragment(resolved)
                    if item.isRoot && resourceURI != uri { resources[uri] = Resource(location: location, draft: draft, canonicalURI: resourceURI) }
                    resources[resourceURI] = Resource(location: location, draft: draft, canonicalURI: resourceURI)
                    base = resourceURI
                    if dialect.anchorsInID, let fragment = URIReference.fragment(of: resolved), !fragment.isEmpty, !fragment.hasPrefix("/") {
                        anchors[base + "#" + fragment] = Anchor(location: location, resourceURI: base, dynamic: false)
                    }
                }
            }
            if dialect.keywords["$anchor"] != nil, case .string(let name)? = item.value["$anchor"] {
                anchors[base + "#" + name] = Anchor(location: location, resourceURI: base, dynamic: false)
            }
            if dialect.keywords["$dynamicAnchor"] != nil, case .string(let name)? = item.value["$dynamicAnchor"] {
                if anchors[base + "#" + name] == nil || anchors[base + "#" + name]?.dynamic == true {
                    anchors[base + "#" + name] = Anchor(location: location, resourceURI: base, dynamic: true)
                }
                dynamicAnchorNames[base, default: []].append(name)
            }
            for member in members {
                guard let definition = dialect.keywords[member.key], definition.shape != .none else { continue }
                let pointer = item.pointer + "/" + JSONPointer.escape(member.key)
                switch (definition.shape, member.value) {
                case (.schema, _), (.schemaOrArray, .object), (.schemaOrArray, .bool):
                    work.append((member.value, pointer, base, draft, false))
                case (.schemaArray, .array(let elements)), (.schemaOrArray, .array(let elements)):
                    for (i, element) in elements.enumerated() { work.append((element, pointer + "/\(i)", base, draft, false)) }
                case (.schemaMap, .object(let entries)), (.schemaMapOrNames, .object(let entries)):
                    for entry in entries { work.append((entry.value, pointer + "/" + JSONPointer.escape(entry.key), base, draft, false)) }
                default:
                    break
                }
            }
        }
    }

    /// What a reference leads to.
    struct Target: Sendable {
        var location: Location
        var value: JSONValue
        /// The base URI in effect at the target (after `$id`s on the way).
        var baseURI: String
        var draft: JSONSchemaDraft
        /// The resource containing the target and where its root is.
        var resourceURI: String
        var resourcePointer: String
    }

    /// Finds the schema an absolute URI (with fragment) names, retrieving unknown documents.
    /// `contextDraft` is the draft of the referring schema (for documents without `$schema`).
    mutating func lookup(_ absolute: String, contextDraft: JSONSchemaDraft) throws -> Target? {
        let uri = URIReference.stripFragment(absolute)
        let fragment = URIReference.percentDecoded(URIReference.fragment(of: absolute) ?? "")
        let isAnchor = !(fragment.isEmpty || fragment.hasPrefix("/"))
        if resources[uri] == nil || (isAnchor && anchors[uri + "#" + fragment] == nil) {
            indexPending(draft: contextDraft)
        }
        if resources[uri] == nil {
            if let builtIn = MetaSchemas.builtIn[uri] {
                _ = try? addDocument(builtIn, node: nil, uri: uri, file: nil, draft: nil)
                indexPending(draft: contextDraft)
            } else if let retrieve, let retrieved = try retrieve(uri) {
                _ = try? addDocument(retrieved, node: nil, uri: uri, file: nil, draft: nil)
                indexPending(draft: contextDraft)
            }
        }
        guard let resource = resources[uri] else { return nil }
        if fragment.isEmpty || fragment.hasPrefix("/") {
            return target(in: resource, uri: uri, pointer: fragment)
        }
        guard let anchor = anchors[uri + "#" + fragment], let value = documents[anchor.location.document].value.value(at: anchor.location.pointer) else {
            return nil
        }
        let owner = resources[anchor.resourceURI] ?? resource
        return Target(location: anchor.location, value: value, baseURI: anchor.resourceURI, draft: owner.draft,
                      resourceURI: anchor.resourceURI, resourcePointer: owner.location.pointer)
    }

    /// Walks from a resource's root down a JSON pointer, following `$id` changes on the way.
    private func target(in resource: Resource, uri: String, pointer: String) -> Target? {
        let document = documents[resource.location.document].value
        guard var current = document.value(at: resource.location.pointer) else { return nil }
        let uri = resource.canonicalURI
        var result = Target(location: resource.location, value: current, baseURI: uri, draft: resource.draft, resourceURI: uri, resourcePointer: resource.location.pointer)
        guard !pointer.isEmpty else { return result }
        var path = resource.location.pointer
        let tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for token in tokens {
            path += "/" + token
            guard let next = current.value(at: "/" + token) else { return nil }
            current = next
            // An `$id` on the way (not at the last step's enclosing keyword level only) starts a new resource.
            let dialect = result.draft.dialect
            if let id = dialect.id(of: current), !(dialect.anchorsInID && id.hasPrefix("#")),
                !(dialect.refOverridesSiblings && current["$ref"] != nil)
            {
                let resolved = URIReference.stripFragment(URIReference.resolve(id, against: result.baseURI))
                if let embedded = resources[resolved], embedded.location.document == resource.location.document, embedded.location.pointer == path {
                    result.baseURI = resolved
                    result.resourceURI = resolved
                    result.resourcePointer = path
                    result.draft = embedded.draft
                }
            }
        }
        result.location = Location(document: resource.location.document, pointer: path)
        result.value = current
        return result
    }

    /// What `resolve` finds: the subschema, its base URI (after `$id` changes), its draft, and a
    /// JSON pointer to it within its document.
    public struct Resolved: Sendable {
        /// The subschema the reference names.
        public var schema: JSONValue
        /// The base URI in effect at the subschema, for resolving the references inside it.
        public var baseURI: String
        /// The draft the subschema is written in.
        public var draft: JSONSchemaDraft
        /// A JSON pointer to the subschema from the root of the document that holds it.
        public var pointer: String
    }

    /// Resolves a `$ref` (or any URI reference) against a base URI. Documents added without a
    /// known draft are read as 2020-12; `retrieve` is asked for unknown documents.
    public func resolve(_ reference: String, against base: String) -> JSONSchemaRegistry.Resolved? {
        var copy = self
        let absolute = URIReference.resolve(reference, against: base)
        guard let found = try? copy.lookup(absolute, contextDraft: .draft2020_12) else { return nil }
        return Resolved(schema: found.value, baseURI: found.baseURI, draft: found.draft, pointer: found.location.pointer)
    }

    /// The position of the value at `pointer` in a document read with positions.
    func position(document: Int, pointer: String) -> (file: String?, position: JSONPosition?) {
        let entry = documents[document]
        guard var node = entry.node else { return (entry.file, nil) }
        guard !pointer.isEmpty else { return (entry.file, node.position) }
        var position = node.position
        for token in JSONPointer.tokens(of: pointer) {
            switch node.kind {
            case .object(let members):
                guard let member = members.first(where: { $0.key == token }) else { return (entry.file, position) }
                position = member.keyPosition
                node = member.value
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return (entry.file, position) }
                node = elements[index]
                position = node.position
            default:
                return (entry.file, position)
            }
        }
        return (entry.file, position)
    }
}
