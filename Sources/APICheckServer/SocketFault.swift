import APICheckModel

/// What the stub server does on the socket when a stub's `failure` is set (FORMATS §1).
///
/// A server cannot raise a client's error directly; it can only behave on the wire so that the
/// client's own stack reports the failure. Each code maps to the closest behaviour after the
/// connection was accepted:
///
/// | failure | socket | why |
/// |---|---|---|
/// | `connection-reset`, `cannotConnectToHost`, `notConnectedToInternet`, `cannotFindHost`, `dnsLookupFailed`, `secureConnectionFailed` | ``reset`` | the client must fail before any byte arrives, as it would without a route, a host or a handshake; a reset is the one way to fail at once |
/// | `empty-response`, `networkConnectionLost`, `cancelled` | ``close`` | the connection ends cleanly with no answer: what a dropped connection or an abandoned request looks like |
/// | `malformed-response`, `badServerResponse` | ``malformed`` | bytes arrive but are not HTTP |
/// | `timedOut` | ``hold`` | the connection stays open and silent until the client gives up (or the idle timeout closes it) |
public enum SocketFault: String, Sendable, Hashable, CaseIterable {
    /// `SO_LINGER` 0 then close: the peer gets a TCP RST (`ECONNRESET`).
    case reset
    /// Close without writing anything (the peer reads EOF).
    case close
    /// Write bytes that are not an HTTP response, then close.
    case malformed
    /// Write nothing and keep the connection open until the idle timeout.
    case hold

    /// The behaviour for a stub's failure code.
    public init(_ failure: StubFailure) {
        switch failure {
        case .connectionReset, .cannotConnectToHost, .notConnectedToInternet, .cannotFindHost, .dnsLookupFailed, .secureConnectionFailed:
            self = .reset
        case .emptyResponse, .networkConnectionLost, .cancelled:
            self = .close
        case .malformedResponse, .badServerResponse:
            self = .malformed
        case .timedOut:
            self = .hold
        }
    }

    /// What ``malformed`` writes: no status line, no headers, something no HTTP client accepts.
    static let malformedBytes: StaticString = "\u{0}\u{1}APICHECK-MALFORMED-RESPONSE \u{7F}\u{2}\r\n\r\n"
}
