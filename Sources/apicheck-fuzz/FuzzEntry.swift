import Foundation

// Two builds of one target:
// - with `-D FUZZING` and `-sanitize=fuzzer,address` (scripts/fuzz): `main` hands the command line
//   to libFuzzer's driver (`LLVMFuzzerRunDriver`), which calls `LLVMFuzzerTestOneInput` with each
//   input; `APICHECK_FUZZ_TARGET` names the target. (Not libFuzzer's own `main`: SwiftPM links an
//   executable target's entry point as `main`, so the target must have one.)
// - a plain build (`swift build`, CI): `apicheck-fuzz replay <target> <file-or-dir>…` runs saved
//   inputs through the same targets, which is how a crash is reproduced without the fuzzer.

#if FUZZING
nonisolated(unsafe) private var selectedTarget = FuzzTarget.json

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selectedTarget.run(bytes)
    return 0
}

@main
enum FuzzMain {
    static func main() {
        let name = ProcessInfo.processInfo.environment["APICHECK_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let known = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("apicheck-fuzz: set APICHECK_FUZZ_TARGET to one of: \(known) (got \"\(name)\")\n".utf8))
            exit(2)
        }
        selectedTarget = target
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzerTestOneInput))
    }
}
#else
@main
enum FuzzReplay {
    static let usage = """
        usage: apicheck-fuzz list
               apicheck-fuzz replay <target> <file-or-dir>...
               apicheck-fuzz replay all <corpus-root>...    (one folder per target, e.g. Fuzz/Corpus)

        Runs saved inputs through a fuzz target without libFuzzer: to reproduce a crash
        (scripts/fuzz prints the command) or to check a corpus. Exits 0 when every input passes;
        an input that breaks an invariant aborts with a message naming it.
        """

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "list":
            for target in FuzzTarget.allCases {
                print(target.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0) + target.summary)
            }
        case "replay" where arguments.count >= 3:
            let paths = Array(arguments.dropFirst(2))
            if arguments[1] == "all" {
                for target in FuzzTarget.allCases {
                    replay(target, paths.map { $0 + "/" + target.rawValue }.filter { FileManager.default.fileExists(atPath: $0) })
                }
            } else if let target = FuzzTarget(rawValue: arguments[1]) {
                replay(target, paths)
            } else {
                fail("unknown target \"\(arguments[1])\"; `apicheck-fuzz list` shows them")
            }
        case "-h", "--help", "help":
            print(usage)
        default:
            fail(usage)
        }
    }

    static func replay(_ target: FuzzTarget, _ paths: [String]) {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { fail("\(path): no such file or directory") }
            if isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                files += names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
            } else {
                files.append(path)
            }
        }
        let start = ContinuousClock.now
        var bytes = 0
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { fail("\(file): cannot read") }
            ReplayState.begin(file)
            target.run(Array(data))
            bytes += data.count
        }
        ReplayState.begin(nil)
        let elapsed = (ContinuousClock.now - start).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        print("\(target.rawValue): \(files.count) inputs (\(bytes) bytes) replayed, no invariant broken (\(String(format: "%.2f", seconds)) s)")
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("apicheck-fuzz: \(message)\n".utf8))
        exit(2)
    }
}
#endif

/// The input being replayed, named on an invariant failure and on a crash (a trap, a bad access).
enum ReplayState {
    nonisolated(unsafe) private static var current: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var installed = false

    static func begin(_ path: String?) {
        free(current)
        current = path.map { strdup("apicheck-fuzz: the input was \($0)\n") }
        guard !installed else { return }
        installed = true
        for signal in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS] {
            _ = Foundation.signal(signal) { number in
                ReplayState.printCurrentInput()
                _ = Foundation.signal(number, SIG_DFL)
                raise(number)
            }
        }
    }

    /// Async-signal-safe: one `write`.
    static func printCurrentInput() {
        guard let current else { return }
        _ = write(2, current, strlen(current))
    }
}
