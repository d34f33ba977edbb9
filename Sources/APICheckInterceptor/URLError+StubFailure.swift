import APICheckModel
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubFailure {
    /// The `URLError` code URLSession reports for this failure in a real network.
    /// Socket behaviours of the stub server map to what a client would see from them.
    public var urlErrorCode: URLError.Code {
        switch self {
        case .timedOut: .timedOut
        case .cannotConnectToHost: .cannotConnectToHost
        case .cannotFindHost: .cannotFindHost
        case .dnsLookupFailed: .dnsLookupFailed
        case .notConnectedToInternet: .notConnectedToInternet
        case .networkConnectionLost: .networkConnectionLost
        case .badServerResponse: .badServerResponse
        case .secureConnectionFailed: .secureConnectionFailed
        case .cancelled: .cancelled
        case .connectionReset: .networkConnectionLost
        case .emptyResponse: .networkConnectionLost
        case .malformedResponse: .badServerResponse
        }
    }
}
