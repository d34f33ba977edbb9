import APICheckStubFiles
import Foundation

/// Polls the stub files of a ``StubSource`` and reloads the server when they change.
///
/// Polling `stat` is portable (Linux and Apple platforms alike) and cheap: about a millisecond per
/// thousand files. A change is reloaded once the tree has stayed the same for one more interval,
/// so an editor's save-in-several-writes or a `git checkout` is read once, complete. Whether the
/// reload is accepted is the server's rule: a set with errors is reported and not served.
package enum StubFileWatcher {
    /// Files whose change triggers a reload: the stub files (assets are read when sent).
    static func isWatched(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return lowered.hasSuffix(".xml") || lowered.hasSuffix(".json")
    }

    static func start(source: StubSource, interval: Duration, core: ServerCore) -> Task<Void, Never> {
        let maximumEntries = source.options.maximumFileCount * 4
        return Task.detached {
            var current: Fingerprint
            if let loaded = source.fingerprint {
                current = loaded
            } else {
                current = (try? await core.threadPool.runIfActive { fingerprint(source.paths, maximumEntries: maximumEntries) }) ?? Fingerprint()
            }
            var pending: Fingerprint?
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled,
                    let latest = try? await core.threadPool.runIfActive({ fingerprint(source.paths, maximumEntries: maximumEntries) })
                else { continue }
                guard latest.differs(from: current) else {
                    current = latest  // keeps racy contents fresh
                    pending = nil
                    continue
                }
                guard let settling = pending, !latest.differs(from: settling) else {
                    pending = latest  // changed: wait one interval for it to settle
                    continue
                }
                pending = nil
                current = latest
                core.logger.info("stub files changed; reloading")
                _ = try? await core.threadPool.runIfActive { core.reloadNow(trigger: "files changed") }
            }
        }
    }

    /// The state of the watched files at one moment.
    ///
    /// A file's modification time comes from a clock that ticks every few milliseconds, so two
    /// same-size writes within one tick look alike (git's "racily clean" files). A file modified
    /// within the last ``racyWindow`` seconds is therefore also compared by content, for as long
    /// as both states being compared saw it recently modified.
    package struct Fingerprint: Sendable {
        /// Every watched file's path, size, modification time and inode.
        package var metadata = 0
        /// A hash of the content of each file modified within ``racyWindow``, by path.
        package var recentContents: [String: Int] = [:]

        package func differs(from other: Fingerprint) -> Bool {
            if metadata != other.metadata { return true }
            return recentContents.contains { path, content in other.recentContents[path].map { $0 != content } ?? false }
        }
    }

    /// Seconds within which a modification time cannot tell two writes apart.
    static let racyWindow = 2
    /// Files larger than this are not read for the racy check (stub files are far smaller).
    private static let racyReadLimit = 4 << 20

    package static func fingerprint(_ paths: [String], maximumEntries: Int) -> Fingerprint {
        var hasher = Hasher()
        var recentContents: [String: Int] = [:]
        let now = Int(time(nil))
        func combine(_ info: stat, path: String) {
            hasher.combine(Int64(info.st_size))
            hasher.combine(Int64(info.st_ino))
            #if canImport(Darwin)
            let modified = info.st_mtimespec
            #else
            let modified = info.st_mtim
            #endif
            hasher.combine(Int64(modified.tv_sec))
            hasher.combine(Int64(modified.tv_nsec))
            if now - Int(modified.tv_sec) <= racyWindow, Int(info.st_size) <= racyReadLimit,
                let content = FileManager.default.contents(atPath: path)
            {
                recentContents[path] = content.hashValue
            }
        }
        for path in paths {
            hasher.combine(path)
            var info = stat()
            guard stat(path, &info) == 0 else {
                hasher.combine(-1)
                continue
            }
            if info.st_mode & S_IFMT != S_IFDIR {
                combine(info, path: path)
                continue
            }
            guard let (entries, _) = FileSystem.walk(path, maximumEntries: maximumEntries) else { continue }
            for entry in entries where entry.kind != .directory && isWatched(entry.relativePath) {
                hasher.combine(entry.relativePath)
                let entryPath = path + "/" + entry.relativePath
                var entryInfo = stat()
                if stat(entryPath, &entryInfo) == 0 {
                    combine(entryInfo, path: entryPath)
                } else {
                    hasher.combine(-1)
                }
            }
        }
        return Fingerprint(metadata: hasher.finalize(), recentContents: recentContents)
    }
}
