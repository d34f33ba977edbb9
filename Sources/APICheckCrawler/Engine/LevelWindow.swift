import APICheckHypermedia

/// The order a breadth-first level's answers are taken in, whatever order they arrive: a pure
/// value (no tasks, no I/O). At most `concurrency` requests run at once, and at most `window`
/// answers wait for the ones before them, so a slow answer pauses fetching instead of letting a
/// level's worth of bodies pile up. The crawler starts what ``canStart`` allows, hands each
/// answer to ``finish(_:_:)`` and consumes what it returns, in order.
struct LevelWindow<Answer> {
    let concurrency: Int
    let window: Int
    private(set) var started = 0
    private(set) var consumed = 0
    private(set) var running = 0
    private var waiting: [Int: Answer] = [:]

    init(concurrency: Int) {
        self.concurrency = max(1, concurrency)
        window = max(self.concurrency * 4, 64)
    }

    /// Whether another request may start now.
    var canStart: Bool { running < concurrency && started - consumed < window }

    /// Starts the next request; returns its position in the level.
    mutating func start() -> Int {
        started += 1
        running += 1
        return started - 1
    }

    /// The answer at `position` arrived; returns the answers now ready, in level order.
    mutating func finish(_ position: Int, _ answer: Answer) -> [Answer] {
        running -= 1
        waiting[position] = answer
        var ready: [Answer] = []
        while let next = waiting.removeValue(forKey: consumed) {
            ready.append(next)
            consumed += 1
        }
        return ready
    }

    /// Answers held back, waiting for an earlier one.
    var held: Int { waiting.count }
}
