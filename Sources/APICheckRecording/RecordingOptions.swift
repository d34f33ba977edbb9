import APICheckModel
import Foundation

/// How recorded stubs are written.
public struct RecordingOptions: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case json, xml
    }

    public var format: Format
    /// Request headers that become part of the stub's match (`--match-header`), besides method,
    /// path and query. Sensitive headers cannot be matched on: their values are never written.
    public var matchHeaders: [String]
    /// Repeated requests to the same resource with different answers become a sequence; without
    /// it, the first answer is kept and the others are counted.
    public var sequences: Bool
    /// Existing files may be replaced; without it they are left alone and reported.
    public var overwrite: Bool
    /// Extra header names whose values are replaced (`--redact-header`), beside the defaults.
    public var redactedHeaders: [String]
    /// JSON pointers whose values are replaced in request and response bodies (`--redact-json`).
    public var redactedJSONPointers: [String]
    /// Extra query parameter names whose values are replaced, beside the token-like defaults.
    public var redactedQueryParameters: [String]
    /// Literal values (e.g. the credential passed with `--header`) replaced wherever they appear.
    public var secrets: [String]
    /// Bodies above this size are not recorded (the exchange is reported as skipped).
    public var maximumBodyBytes: Int

    public init(
        format: Format = .json, matchHeaders: [String] = [], sequences: Bool = false, overwrite: Bool = false,
        redactedHeaders: [String] = [], redactedJSONPointers: [String] = [], redactedQueryParameters: [String] = [],
        secrets: [String] = [], maximumBodyBytes: Int = 64 << 20
    ) {
        self.format = format
        self.matchHeaders = matchHeaders
        self.sequences = sequences
        self.overwrite = overwrite
        self.redactedHeaders = redactedHeaders
        self.redactedJSONPointers = redactedJSONPointers
        self.redactedQueryParameters = redactedQueryParameters
        self.secrets = secrets
        self.maximumBodyBytes = maximumBodyBytes
    }
}
