import APICheckJSON

/// Shrinks a failing request body to a smallest one that still fails the same way, so a report
/// shows the one field (or the one long value) that matters rather than the whole form.
///
/// Delta debugging (Zeller's ddmin) removes subsets of an object's members or an array's
/// elements; then each remaining value is simplified (strings cut toward one character, numbers
/// toward 0, containers recursively). Every candidate is asked about at most once, the budget is
/// never exceeded, and the same body and predicate always give the same result.
///
/// ```swift
/// let (smallest, attempts) = await ProbeShrinker.shrink(body, maximumAttempts: 100) { candidate in
///     await send(candidate).status >= 500
/// }
/// ```
public enum ProbeShrinker {
    /// The smallest body found for which `stillFails` held (`body` itself when none smaller did),
    /// and how many times `stillFails` was called (at most `maximumAttempts`). `body` is taken to
    /// fail already: it is not asked about.
    public static func shrink(
        _ body: JSONValue, maximumAttempts: Int, stillFails: (JSONValue) async -> Bool
    ) async -> (body: JSONValue, attempts: Int) {
        var run = ShrinkRun(best: body, budget: maximumAttempts)
        await run.reduce(at: [], stillFails)
        return (run.best, run.attempts)
    }
}

/// One shrink: the smallest failing body so far and the attempts spent.
struct ShrinkRun {
    private(set) var best: JSONValue
    private(set) var attempts = 0
    let budget: Int
    /// Bodies already asked about (as written: NFC and NFD text are different requests).
    private var tried: Set<[UInt8]>

    init(best: JSONValue, budget: Int) {
        self.best = best
        self.budget = max(budget, 0)
        self.tried = [JSONWriter().bytes(best)]
    }

    var isExhausted: Bool { attempts >= budget }

    /// Asks about `candidate` (unless asked before or out of budget) and keeps it when it fails.
    mutating func attempt(_ candidate: JSONValue, _ stillFails: (JSONValue) async -> Bool) async -> Bool {
        guard !isExhausted, tried.insert(JSONWriter().bytes(candidate)).inserted else { return false }
        attempts += 1
        guard await stillFails(candidate) else { return false }
        best = candidate
        return true
    }

    /// Shrinks the value at `path` (child indices from the root), then what is left inside it.
    mutating func reduce(at path: [Int], _ stillFails: (JSONValue) async -> Bool) async {
        guard !isExhausted, let value = best.shrinkValue(at: path) else { return }
        switch value {
        case .object, .array:
            await removeChildren(at: path, stillFails)
            var index = 0
            while !isExhausted, let container = best.shrinkValue(at: path), index < container.childCount {
                await reduce(at: path + [index], stillFails)
                index += 1
            }
        case .string(let text):
            await shortenString(Array(text.unicodeScalars), at: path, stillFails)
        case .number(let lexeme):
            await simplifyNumber(lexeme, at: path, stillFails)
        case .bool(true):
            _ = await attempt(best.shrinkSetting(.bool(false), at: path), stillFails)
        case .bool(false), .null:
            break
        }
    }

    /// ddmin over the container's children: the empty container first, then each chunk alone,
    /// then each chunk's complement, splitting finer when neither fails.
    private mutating func removeChildren(at path: [Int], _ stillFails: (JSONValue) async -> Bool) async {
        guard let original = best.shrinkValue(at: path), original.childCount > 0 else { return }
        if await attempt(best.shrinkSetting(original.keepingChildren([]), at: path), stillFails) { return }
        var kept = Array(0..<original.childCount)
        var granularity = 2
        while kept.count >= 2, !isExhausted {
            let chunks = Self.split(kept, into: granularity)
            var reduced = false
            for chunk in chunks where !reduced {
                if await attempt(best.shrinkSetting(original.keepingChildren(chunk), at: path), stillFails) {
                    kept = chunk
                    granularity = 2
                    reduced = true
                }
            }
            // With two chunks each complement is the other chunk, already asked about.
            if !reduced, granularity > 2 {
                for chunk in chunks where !reduced {
                    let complement = kept.filter { !chunk.contains($0) }
                    if await attempt(best.shrinkSetting(original.keepingChildren(complement), at: path), stillFails) {
                        kept = complement
                        granularity = max(granularity - 1, 2)
                        reduced = true
                    }
                }
            }
            if !reduced {
                guard granularity < kept.count else { break }
                granularity = min(granularity * 2, kept.count)
            }
        }
    }

    /// Empty first; then cuts of halving size from the end, then from the start: a 10,000
    /// character value that fails for any length comes down to one character in about 30 asks.
    private mutating func shortenString(_ scalars: [Unicode.Scalar], at path: [Int], _ stillFails: (JSONValue) async -> Bool) async {
        guard !scalars.isEmpty else { return }
        if await attempt(best.shrinkSetting(.string(""), at: path), stillFails) { return }
        var current = scalars
        var cut = current.count / 2
        while cut >= 1, !isExhausted {
            let withoutTail = Array(current.prefix(current.count - cut))
            let withoutHead = Array(current.suffix(current.count - cut))
            if await attempt(best.shrinkSetting(.string(Self.text(withoutTail)), at: path), stillFails) {
                current = withoutTail
            } else if await attempt(best.shrinkSetting(.string(Self.text(withoutHead)), at: path), stillFails) {
                current = withoutHead
            } else {
                cut /= 2
            }
            cut = min(cut, current.count - 1)
        }
    }

    /// `0`, then the integer part, then halves toward 0 while they still fail.
    private mutating func simplifyNumber(_ lexeme: String, at path: [Int], _ stillFails: (JSONValue) async -> Bool) async {
        if await attempt(best.shrinkSetting(.number("0"), at: path), stillFails) { return }
        var integer = Int64(lexeme)
        if integer == nil, let value = Double(lexeme), value.isFinite, abs(value) < 9e18 {
            let truncated = Int64(value.rounded(.towardZero))
            if await attempt(best.shrinkSetting(.number(String(truncated)), at: path), stillFails) { integer = truncated }
        }
        while var value = integer, value / 2 != 0, !isExhausted {
            value /= 2
            guard await attempt(best.shrinkSetting(.number(String(value)), at: path), stillFails) else { break }
            integer = value
        }
    }

    static func split(_ indices: [Int], into parts: Int) -> [[Int]] {
        let size = indices.count / parts
        let remainder = indices.count % parts
        var chunks: [[Int]] = []
        var start = 0
        for part in 0..<parts {
            let length = size + (part < remainder ? 1 : 0)
            guard length > 0 else { continue }
            chunks.append(Array(indices[start..<start + length]))
            start += length
        }
        return chunks
    }

    static func text(_ scalars: [Unicode.Scalar]) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}

extension JSONValue {
    /// Members of an object or elements of an array; 0 for the rest.
    var childCount: Int {
        switch self {
        case .object(let members): members.count
        case .array(let elements): elements.count
        default: 0
        }
    }

    /// The same container with only the children at `indices` (in their order).
    func keepingChildren(_ indices: [Int]) -> JSONValue {
        switch self {
        case .object(let members): .object(indices.map { members[$0] })
        case .array(let elements): .array(indices.map { elements[$0] })
        default: self
        }
    }

    /// The value at a path of child indices (members by position, so repeated keys stay apart).
    func shrinkValue(at path: [Int]) -> JSONValue? {
        var current = self
        for index in path {
            switch current {
            case .object(let members) where members.indices.contains(index): current = members[index].value
            case .array(let elements) where elements.indices.contains(index): current = elements[index]
            default: return nil
            }
        }
        return current
    }

    /// A copy with the value at `path` replaced.
    func shrinkSetting(_ value: JSONValue, at path: [Int]) -> JSONValue {
        guard let index = path.first else { return value }
        let rest = Array(path.dropFirst())
        switch self {
        case .object(var members) where members.indices.contains(index):
            members[index].value = members[index].value.shrinkSetting(value, at: rest)
            return .object(members)
        case .array(var elements) where elements.indices.contains(index):
            elements[index] = elements[index].shrinkSetting(value, at: rest)
            return .array(elements)
        default:
            return self
        }
    }
}
