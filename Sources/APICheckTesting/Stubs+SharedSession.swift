#if canImport(Darwin)
import Foundation

// Apple platforms only. On Linux, swift-corelibs-foundation's `URLSession.shared` never consults
// `URLProtocol.registerClass` (its built-in HTTP protocol wins, measured), so this does not exist
// there. This repository's CI runs on Linux: this file is compiled for Apple platforms but its
// behaviour is not tested here.

extension Stubs {
    /// Answers `URLSession.shared`'s requests from these stubs too, until the scope ends, for code
    /// under test that does not take a session (OHHTTPStubs' and Mocker's model).
    ///
    /// Process-wide: it registers the scope's protocol class with `URLProtocol.registerClass`, so
    /// while it is on, every `URLSession.shared` request in the process, from any test running in
    /// parallel, is answered (or refused) by this scope. Run such tests one at a time
    /// (`@Suite(.serialized)`, and apart from other tests that use `URLSession.shared`). Prefer
    /// handing the code under test ``session``: that is bound to this scope alone.
    public func interceptSharedSession() {
        guard let protocolClass = session.configuration.protocolClasses?.first else { return }
        if !setInterceptsSharedSession(true) { _ = URLProtocol.registerClass(protocolClass) }
    }

    /// Undoes ``interceptSharedSession()``; the scope's end calls it.
    func stopInterceptingSharedSession() {
        if setInterceptsSharedSession(false), let protocolClass = session.configuration.protocolClasses?.first {
            URLProtocol.unregisterClass(protocolClass)
        }
    }
}
#endif
