import NIOCore
import NIOPosix
import Synchronization

/// Request bodies held in memory across all connections, bounded by
/// ``StubServer/Limits/maximumBodyMemory``: many large uploads at once get 503 instead of
/// the server's memory.
///
/// After a burst it can have the memory given back: glibc keeps freed request bodies in its heap
/// (measured: 410 MB resident after 200 × 8 MB uploads, 50 MB after `malloc_trim`), so when the
/// bodies held drop to zero after more than ``trimAbove`` was held, and no body has been held for
/// ``trimDelay`` (the answers that used them are written, the connections refused with them
/// closed), it calls ``StubServer/Configuration/releaseFreeMemory`` once, off the event loops.
/// What that does to the process's allocator is the executable's choice (`apicheck serve` trims
/// glibc's heap); a library never trims its host's heap on its own.
final class BodyMemoryBudget: Sendable {
    let limit: Int
    private let held = Atomic<Int>(0)
    /// The most held since the last trim.
    private let peak = Atomic<Int>(0)
    static let trimAbove = 16 << 20
    static let trimDelay = TimeAmount.seconds(3)
    /// Bumped by every reservation: a scheduled trim runs only if none came since.
    private let generation = Atomic<Int>(0)
    /// Where the trim is scheduled from.
    private let timerLoop: (any EventLoop)?
    private let releaseFreeMemory: (@Sendable () -> Void)?

    init(limit: Int, timerLoop: (any EventLoop)?, releaseFreeMemory: (@Sendable () -> Void)?) {
        self.limit = limit
        self.timerLoop = timerLoop
        self.releaseFreeMemory = releaseFreeMemory
    }

    var current: Int { held.load(ordering: .relaxed) }

    /// Takes `bytes` from the budget; false (nothing taken) when they do not fit.
    func reserve(_ bytes: Int) -> Bool {
        var current = held.load(ordering: .relaxed)
        while true {
            guard current + bytes <= limit else { return false }
            let (exchanged, original) = held.compareExchange(expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged {
                peak.max(current + bytes, ordering: .relaxed)
                generation.add(1, ordering: .relaxed)
                return true
            }
            current = original
        }
    }

    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        let remaining = held.subtract(bytes, ordering: .relaxed).newValue
        guard remaining == 0, peak.load(ordering: .relaxed) > Self.trimAbove, let timerLoop, let releaseFreeMemory else { return }
        let scheduledAt = generation.load(ordering: .relaxed)
        timerLoop.scheduleTask(in: Self.trimDelay) {
            // Quiet since: trim once (a later quiet moment schedules its own).
            guard self.generation.load(ordering: .relaxed) == scheduledAt, self.peak.exchange(0, ordering: .relaxed) > Self.trimAbove else { return }
            NIOThreadPool.singleton.submit { _ in releaseFreeMemory() }
        }
    }
}
