// `import APICheckTesting` is enough in a test: what test authors name, and nothing else. The
// interceptor's and responder's other public types (the protocol class, replies, code-stub
// storage, passthrough observers) stay in their modules, for apps and the other transports.
// (Not APICheckModel: its `SourceLocation` would be ambiguous beside Swift Testing's.)
@_exported import class APICheckInterceptor.StubInterceptor
@_exported import struct APICheckInterceptor.StubRoute
@_exported import struct APICheckInterceptor.StubCondition
@_exported import struct APICheckInterceptor.StubbedRequest
@_exported import struct APICheckInterceptor.StubRouteError
@_exported import class APICheckResponder.StubJournal
@_exported import struct APICheckResponder.JournalEntry
@_exported import enum APICheckResponder.RequestCount
@_exported import struct APICheckRecording.RecordingOptions
@_exported import struct APICheckRecording.RecordingSummary
