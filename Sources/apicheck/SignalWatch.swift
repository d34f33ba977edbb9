import APICheckCrawler
import Dispatch
import Foundation

/// Calls `handler` with the signal's number for each of `signals` received, from the moment it is
/// made until ``cancel()``; the signals' default actions (ending the process) are off meanwhile.
final class SignalWatch {
    private let sources: [any DispatchSourceSignal]

    init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }

    /// Ctrl-C or a cancelled CI job (SIGINT, SIGTERM) interrupts `interruption`, saying `stopping`
    /// on standard error, and the work finishes with a report of what was done; a second signal
    /// exits at once.
    static func interrupting(_ interruption: CrawlInterruption, stopping: String) -> SignalWatch {
        SignalWatch(signals: [SIGINT, SIGTERM]) { number in
            if interruption.signalNumber != nil { Foundation.exit(128 + number) }
            interruption.interrupt(signal: number)
            Output(fileDescriptor: STDERR_FILENO).writeError("\napicheck: stopping; \(stopping) (press Ctrl-C again to quit at once)")
        }
    }
}
