import APICheckFindings
import APICheckModel
import APICheckSpool
import Dispatch
import Foundation
import Synchronization

extension JSONReportRenderer {
    /// Writes the `checks` array as ``JSONWriter`` in `.pretty` style writes an array, handing
    /// `sink` a piece whenever `output` reaches `chunkBytes`. Checks are read in order a batch at
    /// a time (a spooled list is read sequentially); when the table recorded every check's `via`
    /// and the batch is large, its checks' text is made in parts on up to four threads at once,
    /// then appended in order: most of a large crawl's report is its checks' text. At most one
    /// batch of checks and their text (8,192) is held besides the output.
    static func writeChecks(
        _ checks: CheckList, paths: RelPathTable, indent: Int, into output: inout String, chunkBytes: Int, sink: (String) throws -> Void
    ) rethrows {
        // Several threads only when every check's `via` is known (the table was built from
        // this list): looking a path up changes the table.
        let vias = paths.checkVias
        let threads = vias.count >= checks.count ? min(4, max(1, ProcessInfo.processInfo.activeProcessorCount)) : 1
        let separator = "\n" + String(repeating: "  ", count: indent + 1)
        let batchSize = 2_048 * threads
        var iterator = checks.makeIterator()
        var written = 0
        var batch: [CheckedLink] = []
        batch.reserveCapacity(batchSize)
        while true {
            batch.removeAll(keepingCapacity: true)
            while batch.count < batchSize, let check = iterator.next() { batch.append(check) }
            guard !batch.isEmpty else { break }
            let (batchChecks, first) = (batch, written)
            let parts = batch.count >= 1_024 ? threads : 1
            // Each check's text on its own, so that pieces are cut between checks as before.
            @Sendable func render(_ part: Int, members: (Int, CheckedLink) -> (via: Int32?, step: String)?) -> [String] {
                ((part * batchChecks.count / parts)..<((part + 1) * batchChecks.count / parts)).map { position in
                    var text = first + position == 0 ? "[" : ","
                    text += separator
                    let check = batchChecks[position]
                    check.writePrettyJSON(indent: indent + 1, path: members(first + position, check), into: &text)
                    return text
                }
            }
            let texts: [[String]]
            if parts == 1 {
                texts = [render(0) { paths.members(ofCheck: $0, $1) }]
            } else {
                let rendered = Mutex<[[String]]>(Array(repeating: [], count: parts))
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    let text = render(part) { RelPathTable.members(of: $1, via: vias[$0]) }
                    rendered.withLock { $0[part] = text }
                }
                texts = rendered.withLock { $0 }
            }
            for text in texts.joined() {
                output += text
                if output.utf8.count >= chunkBytes {
                    try sink(output)
                    output.removeAll(keepingCapacity: true)
                }
            }
            written += batch.count
        }
        output += written == 0 ? "[]" : "\n" + String(repeating: "  ", count: indent) + "]"
    }
}
