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

extension URLError {
    /// The `userInfo` key under which the `URLError` of a request no stub matched carries its
    /// ``NearMissReport`` (the nearest stubs and why each missed), for clients and tests that
    /// wrap errors and lose the description.
    public static let nearMissReportKey = "APICheckNearMissReport"

    /// The near-miss report of a request no stub matched; `nil` for other errors.
    ///
    /// ```swift
    /// catch let error as URLError { print(error.nearMissReport?.description ?? "\(error)") }
    /// ```
    public var nearMissReport: NearMissReport? { userInfo[Self.nearMissReportKey] as? NearMissReport }
}
