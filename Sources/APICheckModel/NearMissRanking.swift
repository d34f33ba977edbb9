/// How near misses are ordered, nearest first, wherever they are listed: fewer differences, then
/// the path more alike segment by segment (a template that binds the request's segments beats a
/// literal that differs), then fewer edits between the stub's path and the request's (a typo:
/// `/itemz` is one edit from `/items`, five from `/users`), then the order given (load order).
/// Without the edit distance a one-letter typo listed the stubs in load order, and the stub
/// meant could be left out of the three shown.
enum NearMissRanking {
    /// Edits between the stub's path pattern text and the request's path (bounded input).
    static func distance(_ pattern: PathPattern, _ path: String) -> Int {
        Suggestion.editDistance(Array(pattern.text.utf8), Array(path.utf8))
    }
}

extension StubSet {
    /// `misses` nearest first for `request` (see `NearMissRanking`), at most ``nearMissLimit``:
    /// the responder merges its code stubs' misses with the set's this way.
    package static func nearestFirst(_ misses: [NearMiss], for request: StubRequest) -> [NearMiss] {
        PathSegments.withSegments(of: request.path) { segments in
            misses.enumerated()
                .map { offset, miss in
                    let similarity = miss.stub.request.path.similarity(to: segments)
                    let distance = NearMissRanking.distance(miss.stub.request.path, request.path)
                    return (key: (miss.differences.count, -similarity, distance, offset), miss: miss)
                }
                .sorted { $0.key < $1.key }
                .prefix(nearMissLimit)
                .map(\.miss)
        }
    }
}
