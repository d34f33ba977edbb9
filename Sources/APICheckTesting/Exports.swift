// `import APICheckTesting` is enough in a test: the interceptor and its journal come with it, and
// `RecordingOptions` / `RecordingSummary` for recording (RecordMode).
// (Not APICheckModel: its `SourceLocation` would be ambiguous beside Swift Testing's.)
@_exported import APICheckInterceptor
@_exported import APICheckRecording
@_exported import APICheckResponder
