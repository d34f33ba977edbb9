/// Bounds for loading untrusted stub files.
public struct StubLoadOptions: Sendable, Hashable {
    /// Largest stub file (XML or JSON) that is read; larger ones are reported, not read.
    public var maximumStubFileBytes: Int
    /// Largest `body-file` / `body-template` a stub may refer to.
    public var maximumBodyFileBytes: Int
    /// Deepest JSON nesting accepted in a JSON stub file.
    public var maximumJSONDepth: Int
    /// Most stub files read from one load.
    public var maximumFileCount: Int
    /// The folder `body-file` paths resolve against (after the stub file's own folder), and that
    /// no resolved path may leave. `nil`: each directory argument is its own root, and a file
    /// argument's root is its folder.
    public var root: String?
    /// Decode files on several threads. Results are in the same order either way.
    public var concurrent: Bool

    public init(
        maximumStubFileBytes: Int = 8 << 20,
        maximumBodyFileBytes: Int = 256 << 20,
        maximumJSONDepth: Int = 128,
        maximumFileCount: Int = 200_000,
        root: String? = nil,
        concurrent: Bool = true
    ) {
        self.maximumStubFileBytes = maximumStubFileBytes
        self.maximumBodyFileBytes = maximumBodyFileBytes
        self.maximumJSONDepth = maximumJSONDepth
        self.maximumFileCount = maximumFileCount
        self.root = root
        self.concurrent = concurrent
    }
}
