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
}
