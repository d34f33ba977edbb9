import APICheckJSON

/// Instances of a JSON Schema, valid or invalid on purpose, deterministic by seed.
///
/// Valid instances serve mock response bodies and request bodies that probe what an API accepts;
/// invalid ones, each breaking one chosen keyword and nothing else, probe what it rejects
/// (Schemathesis's `negative_data_rejection`). Examples, defaults and enum values come first, as
/// Prism answers with examples before generating. Every instance is checked by the compiled
/// ``JSONSchema`` before it is returned: the generator draws from merged constraints, retries with
/// another sub-seed a bounded number of times, and throws rather than return an instance the
/// validator rejects.
///
/// ```swift
/// let generator = try JSONSchemaGenerator(schema: movieSchema)
/// let body = try generator.validInstance(seed: 42)
/// let tooLong = try generator.invalidInstance(violating: "/properties/title/maxLength", seed: 42)
/// ```
public struct JSONSchemaGenerator: Sendable {
    let validator: JSONSchema
    let env: GenerationEnvironment
    let root: SchemaSite

    /// Whole-instance attempts per call; the last few prefer the smallest value everywhere.
    static let attempts = 16
    static let shortestAttempts = 5
    /// Attempts spent when trying whether a keyword is violable at all.
    static let probeAttempts = 8
    static let maximumViolableKeywords = 256
    /// The root's URI when it has none of its own.
    static let rootURI = "urn:apicheck:generator:root"

    /// Compiles `schema` (errors are the engine's) and indexes it for `$ref` resolution.
    public init(
        schema: JSONValue, baseURI: String? = nil, registry: JSONSchemaRegistry = .init(), options: JSONSchemaOptions = .init()
    ) throws(JSONSchemaError) {
        var validator = try JSONSchema(schema, baseURI: baseURI, registry: registry, options: options)
        if baseURI == nil, !validator.baseURI.contains(":"),
            let named = try? JSONSchema(schema, baseURI: Self.rootURI, registry: registry, options: options)
        {
            // No absolute base (no $id, none given): name the root so probe validators can refer into it.
            validator = named
        }
        var known = registry
        try? known.add(schema, uri: validator.baseURI, draft: validator.draft)
        self.validator = validator
        self.env = GenerationEnvironment(
            registry: known, rootDocument: schema, rootBaseURI: validator.baseURI, options: options,
            probes: SubschemaProbes(registry: known, options: options), target: nil)
        self.root = SchemaSite(schema: schema, baseURI: validator.baseURI, pointer: "", path: "", draft: validator.draft, hops: 0)
    }

    /// A generated instance the schema accepts; the same seed gives the same instance.
    public func validInstance(seed: UInt64) throws(JSONSchemaGenerationError) -> JSONValue {
        try instance(env, seed: seed, attempts: Self.attempts) { value in
            guard !validator.isValid(value) else { return nil }
            let first = validator.validate(value).errors.first
            return (first?.keywordLocation ?? "", "the validator rejected the instance: \(first?.error ?? "invalid")")
        }
    }

    /// `count` valid instances: the schema's own `examples`/`example`/`default`/`const`/`enum`
    /// values that validate, then generated ones (seeds derived from `seed`). Fewer when the
    /// schema admits no more (or none: an unsatisfiable schema gives an empty array; call
    /// ``validInstance(seed:)`` to learn why).
    public func validInstances(count: Int, seed: UInt64) -> [JSONValue] {
        var result: [JSONValue] = []
        guard count > 0 else { return result }
        var declared = SchemaConstraints()
        if (try? declared.add(root, env)) != nil {
            for value in declared.examples + (declared.candidates ?? []) where result.count < count {
                if !result.contains(value), validator.isValid(value) { result.append(value) }
            }
        }
        var index: UInt64 = 0
        var failures = 0
        while result.count < count, failures < 3 {
            do throws(JSONSchemaGenerationError) {
                result.append(try validInstance(seed: GeneratorRandom.derive(seed, index)))
            } catch {
                failures += error.isUnsatisfiable ? 3 : 1
            }
            index += 1
        }
        return result
    }

    /// An instance that is valid except at `keywordLocation`: validating it reports errors at that
    /// keyword only (and at the applicators above it). The location is an evaluation path as
    /// ``violableKeywords()`` lists it, or the keyword's plain JSON pointer in the schema document.
    public func invalidInstance(violating keywordLocation: String, seed: UInt64) throws(JSONSchemaGenerationError) -> JSONValue {
        let target = try evaluationPath(for: keywordLocation)
        return try violation(of: target, seed: seed, attempts: Self.attempts)
    }

    /// Keyword locations ``invalidInstance(violating:seed:)`` can violate alone: each is tried once
    /// here, so the list holds only ones that worked for this schema.
    public func violableKeywords() -> [String] {
        // A schema too big to generate from at all is too big for each keyword in turn as well.
        do throws(JSONSchemaGenerationError) {
            _ = try validInstance(seed: 0)
        } catch {
            if error.isBudget { return [] }
        }
        return candidateViolations().map(\.path).filter { (try? violation(of: $0, seed: 0, attempts: Self.probeAttempts)) != nil }
    }

    // MARK: internals

    private func evaluationPath(for location: String) throws(JSONSchemaGenerationError) -> String {
        let candidates = candidateViolations()
        if candidates.contains(where: { $0.path == location }) { return location }
        if let match = candidates.first(where: { $0.documentPointer == location }) { return match.path }
        throw .unknownKeywordLocation(location)
    }

    private func violation(of target: String, seed: UInt64, attempts: Int) throws(JSONSchemaGenerationError) -> JSONValue {
        var violating = env
        violating.target = target
        return try instance(violating, seed: seed, attempts: attempts) { value in
            let output = validator.validate(value)
            if output.valid { return (target, "the instance made to violate \(target) was valid") }
            if let stray = output.errors.first(where: { !Self.belongs($0.keywordLocation, to: target) }) {
                return (stray.keywordLocation, "violating \(target) also failed \(stray.keywordLocation): \(stray.error)")
            }
            if !output.errors.contains(where: { $0.keywordLocation == target || $0.keywordLocation.hasPrefix(target + "/") }) {
                return (target, "the validator did not report \(target)")
            }
            return nil
        }
    }

    /// An error unit at the target, below it, or at an applicator above it (`/properties`, `/$ref`).
    static func belongs(_ location: String, to target: String) -> Bool {
        location == target || location.hasPrefix(target + "/") || location.isEmpty || target.hasPrefix(location + "/")
    }

    /// Runs whole-instance attempts until `rejection` (nil = accepted) accepts one.
    private func instance(
        _ env: GenerationEnvironment, seed: UInt64, attempts: Int, rejection: (JSONValue) -> (String, String)?
    ) throws(JSONSchemaGenerationError) -> JSONValue {
        var lastError: JSONSchemaGenerationError?
        let firstShortest = attempts - min(Self.shortestAttempts, attempts / 3)
        var attempt = 0
        while attempt < attempts {
            defer { attempt += 1 }
            let shortest = attempt >= firstShortest
            var builder = InstanceBuilder(env: env, seed: GeneratorRandom.derive(seed, UInt64(attempt)), shortest: shortest)
            do throws(JSONSchemaGenerationError) {
                let value = try builder.value(for: [root], depth: 0, at: "")
                guard let (location, reason) = rejection(value) else { return value }
                lastError = .attemptsExhausted(at: location, attempts: attempts, reason)
            } catch {
                if error.isUnsatisfiable {
                    if env.target != nil { throw .notViolable(at: env.target ?? "", "\(error.message) (at \(error.keywordLocation))") }
                    throw error
                }
                // Too big or too deep: only the smallest values can still fit, and only once.
                if error.isBudget {
                    if shortest { break }
                    attempt = max(attempt, firstShortest - 1)
                }
                lastError = error
            }
        }
        if let target = env.target, let lastError {
            throw .notViolable(at: target, lastError.message)
        }
        throw lastError ?? .attemptsExhausted(at: "", attempts: attempts, "no instance found")
    }
}
