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
    /// ``NearMissReport`` (read it with ``nearMissReport``), for clients and tests that wrap errors
    /// and lose the description.
    public static let nearMissReportKey = "APICheckNearMissReport"

    /// The near-miss report of a request no stub matched; `nil` for other errors.
    ///
    /// ```swift
    /// catch let error as URLError { logger.error("\(error.nearMissReport?.description ?? "\(error)")") }
    /// ```
    public var nearMissReport: NearMissReport? {
        (userInfo[Self.nearMissReportKey] as? NearMissReportBox)?.report ?? userInfo[Self.nearMissReportKey] as? NearMissReport
    }
}

/// The report inside a `URLError`'s `userInfo`. Its description is one line: Foundation prints
/// every `userInfo` value when the error is printed, and the whole report is already its
/// `localizedDescription`; stored bare it printed twice, and a test runner's "caught error"
/// showed it twice more beside the helper's own issue.
final class NearMissReportBox: NSObject, Sendable {
    let report: NearMissReport

    init(_ report: NearMissReport) {
        self.report = report
    }

    override var description: String { "near-miss report of \(report.request.summary)" }
}
