import APICheckStubFiles
import Foundation

/// Polls the stub files of a ``StubSource`` and reloads the server when they change.
///
/// Polling `stat` is portable (Linux and Apple platforms alike) and cheap: about a millisecond per
/// thousand files. A change is reloaded once the tree has stayed the same for one more interval,
/// so an editor's save-in-several-writes or a `git checkout` is read once, complete. Whether the
/// reload is accepted is the server's rule: a set with errors is reported and not served.
enum StubFileWatcher {
    /// Files whose change triggers a reload: the stub files (assets are read when sent).
    static func isWatched(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return lowered.hasSuffix(".xml") || lowered.hasSuffix(".json")
    }

    static func start(source: StubSource, interval: Duration, core: ServerCore) -> Task<Void, Never> {
        let maximumEntries = source.options.maximumFileCount * 4
        return Task.detached {
            var current: Int
            if let loaded = source.fingerprint {
                current = loaded
            } else {
                current = (try? await core.threadPool.runIfActive { fingerprint(source.paths, maximumEntries: maximumEntries) }) ?? 0
            }
            var pending: Int?
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled,
                    let latest = try? await core.threadPool.runIfActive({ fingerprint(source.paths, maximumEntries: maximumEntries) })
                else { continue }
                if latest == current {
                    pending = nil
                    continue
                }
                guard pending == latest else {
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

    /// A hash of every watched file's path, size, modification time and inode.
    static func fingerprint(_ paths: [String], maximumEntries: Int) -> Int {
        var hasher = Hasher()
        for path in paths {
            hasher.combine(path)
            var info = stat()
            guard stat(path, &info) == 0 else {
                hasher.combine(-1)
                continue
            }
            if info.st_mode & S_IFMT != S_IFDIR {
                combine(info, into: &hasher)
                continue
            }
            guard let (entries, _) = FileSystem.walk(path, maximumEntries: maximumEntries) else { continue }
            for entry in entries where entry.kind != .directory && isWatched(entry.relativePath) {
                hasher.combine(entry.relativePath)
                var entryInfo = stat()
                if stat(path + "/" + entry.relativePath, &entryInfo) == 0 {
                    combine(entryInfo, into: &hasher)
                } else {
                    hasher.combine(-1)
                }
            }
        }
        return hasher.finalize()
    }

    private static func combine(_ info: stat, into hasher: inout Hasher) {
        hasher.combine(Int64(info.st_size))
        hasher.combine(Int64(info.st_ino))
        #if canImport(Darwin)
        hasher.combine(Int64(info.st_mtimespec.tv_sec))
        hasher.combine(Int64(info.st_mtimespec.tv_nsec))
        #else
        hasher.combine(Int64(info.st_mtim.tv_sec))
        hasher.combine(Int64(info.st_mtim.tv_nsec))
        #endif
    }
}
