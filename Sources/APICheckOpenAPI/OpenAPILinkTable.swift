import APICheckJSON
import Foundation

/// One Link Object of a documented response, read once: the operation it leads to and how to
/// fill that operation's parameters from an exchange.
public struct OpenAPILinkObject: Sendable {
    /// The link's name (`GetUserByUserId`): its rel in reports.
    public var name: String
    /// Where it is written (`openapi.yaml#/paths/~1users/get/responses/200/links/GetUserByUserId`).
    public var location: String
    /// The operation it leads to (`GET /users/{id}`).
    public var target: String
    /// `path`, `query`, `header`, `cookie` or `nil` (unqualified: the target decides).
    public var parameters: [(place: String?, name: String, value: LinkValue)]
    /// The link's own `server.url`, when it has one.
    public var serverURL: String?
}

/// The Link Objects of a document, by operation and documented status, and the warnings about
/// the ones that cannot be used. Built from the raw document (local `$ref`s followed, bounded),
/// so a bad link never stops the document from loading.
public struct OpenAPILinkTable: Sendable {
    /// Operation name → response status as ``OpenAPIResponse/status`` writes it → links.
    var links: [String: [String: [OpenAPILinkObject]]] = [:]
    /// The declared place (`path`, `query`, …) of each operation's parameters, by name.
    var parameterPlaces: [String: [String: String]] = [:]
    /// `operationId` → operation name, for links and for labels.
    var operationIDs: [String: String] = [:]
    public private(set) var warnings: [OpenAPIWarning] = []
    /// The operations in the order the document writes them (`GET /movies/{id}`): OpenAPIKit's
    /// model does not keep it for every version, and reports must not change from run to run.
    public private(set) var documentOrder: [String] = []

    /// How many Link Objects one response may have before the rest are ignored (with a warning).
    static let maximumLinksPerResponse = 64
    private static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"]

    /// The Link Objects documented for `status` on `operation`.
    public func links(of operation: String, status: String) -> [OpenAPILinkObject] {
        links[operation]?[status] ?? []
    }

    /// Every Link Object, for tests and tools.
    public var allLinks: [OpenAPILinkObject] { links.values.flatMap { $0.values.flatMap { $0 } } }

    init(node: JSONNode, file: String, operations: [OpenAPIOperation]) {
        let known = Set(operations.map(\.name))
        var pending: [(operation: String, status: String, pointer: String, node: JSONNode)] = []
        for pathMember in node["paths"]?.members ?? [] {
            let itemPointer = "/paths/" + JSONPointer.escape(pathMember.key)
            guard let (item, _) = resolve(pathMember.value, at: itemPointer, in: node) else { continue }
            let shared = item["parameters"]?.elements ?? []
            for member in item.members ?? [] where Self.methods.contains(member.key) {
                let name = "\(member.key.uppercased()) \(pathMember.key)"
                guard known.contains(name) else { continue }
                documentOrder.append(name)
                let operation = member.value
                if let id = operation["operationId"]?.stringValue, operationIDs[id] == nil { operationIDs[id] = name }
                var places: [String: String] = [:]
                for parameter in shared + (operation["parameters"]?.elements ?? []) {
                    guard let (resolved, _) = resolve(parameter, at: itemPointer, in: node),
                        let parameterName = resolved["name"]?.stringValue, let place = resolved["in"]?.stringValue
                    else { continue }
                    places[parameterName] = place
                }
                parameterPlaces[name] = places
                let operationPointer = itemPointer + "/" + member.key
                for response in operation["responses"]?.members ?? [] {
                    let responsePointer = operationPointer + "/responses/" + JSONPointer.escape(response.key)
                    guard let (resolved, pointer) = resolve(response.value, at: responsePointer, in: node), resolved["links"] != nil else { continue }
                    let status = response.key.uppercased() == "DEFAULT" ? "default" : response.key.uppercased()
                    pending.append((name, status, pointer, resolved))
                }
            }
        }
        // Links second: an operationId may be declared after the link that names it.
        for (operation, status, pointer, response) in pending {
            let members = response["links"]?.members ?? []
            for (offset, member) in members.enumerated() {
                let linkPointer = pointer + "/links/" + JSONPointer.escape(member.key)
                guard offset < Self.maximumLinksPerResponse else {
                    warn("\(operation) \(status) has more than \(Self.maximumLinksPerResponse) links; the rest are ignored", at: member.value, file: file)
                    break
                }
                guard let (link, resolvedPointer) = resolve(member.value, at: linkPointer, in: node) else {
                    warn("the link \(member.key) is a $ref that does not resolve in the document; ignored", at: member.value, file: file)
                    continue
                }
                if let object = linkObject(member.key, link, location: file + "#" + resolvedPointer, file: file, known: known) {
                    links[operation, default: [:]][status, default: []].append(object)
                }
            }
        }
    }

    private mutating func linkObject(_ name: String, _ link: JSONNode, location: String, file: String, known: Set<String>) -> OpenAPILinkObject? {
        let target: String
        if let id = link["operationId"]?.stringValue {
            guard let found = operationIDs[id] else {
                warn("the link \(name) names operationId '\(id)', which no operation of the document has; ignored", at: link["operationId"] ?? link, file: file)
                return nil
            }
            target = found
        } else if let reference = link["operationRef"]?.stringValue {
            guard let found = Self.operation(reference: reference), known.contains(found) else {
                warn("the link \(name)'s operationRef '\(reference)' is not an operation of this document (#/paths/…/method); ignored", at: link["operationRef"] ?? link, file: file)
                return nil
            }
            target = found
        } else {
            warn("the link \(name) has neither operationId nor operationRef; ignored", at: link, file: file)
            return nil
        }
        var parameters: [(place: String?, name: String, value: LinkValue)] = []
        for parameter in link["parameters"]?.members ?? [] {
            let value: LinkValue
            do {
                value = try LinkValue(parameter.value.value)
            } catch {
                warn("the link \(name)'s parameter \(parameter.key): \(error.message); the link is ignored", at: parameter.value, file: file)
                return nil
            }
            var place: String?
            var parameterName = parameter.key
            for qualifier in ["path", "query", "header", "cookie"] where parameter.key.hasPrefix(qualifier + ".") {
                place = qualifier
                parameterName = String(parameter.key.dropFirst(qualifier.count + 1))
            }
            parameters.append((place, parameterName, value))
        }
        return OpenAPILinkObject(name: name, location: location, target: target, parameters: parameters, serverURL: link["server"]?["url"]?.stringValue)
    }

    /// `#/paths/~1users~1{id}/get` → `GET /users/{id}`; `nil` for anything else (other files).
    static func operation(reference: String) -> String? {
        guard reference.hasPrefix("#/paths/") else { return nil }
        let tokens = JSONPointer.tokens(of: String(reference.dropFirst()))
        guard tokens.count == 3, methods.contains(tokens[2].lowercased()) else { return nil }
        return "\(tokens[2].uppercased()) \(tokens[1])"
    }

    /// `node` with its local `$ref`s followed (at most 16), and the pointer it was found at.
    private func resolve(_ node: JSONNode, at pointer: String, in root: JSONNode) -> (JSONNode, String)? {
        var (current, place) = (node, pointer)
        for _ in 0..<16 {
            guard let reference = current["$ref"]?.stringValue else { return (current, place) }
            guard reference.hasPrefix("#") else { return nil }
            place = String(reference.dropFirst())
            guard let next = Self.node(at: place, in: root) else { return nil }
            current = next
        }
        return nil
    }

    static func node(at pointer: String, in root: JSONNode) -> JSONNode? {
        root.node(at: pointer)
    }

    private mutating func warn(_ message: String, at node: JSONNode, file: String) {
        guard warnings.count < 100 else { return }
        warnings.append(OpenAPIWarning(file: file, line: node.position.line, column: node.position.column, message: message))
    }
}
