import Threads

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts the kernel writing a warehouse file and its WAL to disk while a long write
/// transaction runs, so the `fdatasync`s of its commit and checkpoint find the pages already on
/// their way instead of waiting for all of them at the end.
///
/// A big file writes its pages to the WAL and, at the checkpoint after its commit, as much to
/// the database file; the kernel starts writing dirty pages back only after seconds or past a
/// share of memory, so each `fdatasync` waited for the whole file at the end of the ingest with
/// nothing to overlap it (docs/decisions.md#write-behind-of-the-file-and-wal). Every tick,
/// `sync_file_range(SYNC_FILE_RANGE_WRITE)` starts the writeback of what is dirty by then (the
/// method of PostgreSQL's `checkpoint_flush_after` and RocksDB's `bytes_per_sync`). It only starts writes the kernel would make anyway:
/// durability still rests on SQLite's own `fdatasync`s, and a failed call changes nothing.
///
/// It never opens or closes the files itself: closing any descriptor of the database file
/// would drop every POSIX lock the process holds on it, SQLite's shared lock among them
/// (https://sqlite.org/howtocorrupt.html, section 2.2), and another process could then delete
/// the WAL under this one. It uses the descriptors SQLite already holds, found among
/// `/proc/self/fd` by device and inode (a WAL not yet created is looked for again on the next
/// tick); SQLite keeps them open for as long as the transaction runs.
///
/// Linux only; `sync_file_range` is looked up by name (Glibc declares it only under
/// `_GNU_SOURCE`, which Swift's Glibc module does not set). Elsewhere, or when the thread
/// cannot be started, the transaction runs without it.
final class SQLiteWriteBehind {
    private typealias SyncFileRange = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32

    /// `sync_file_range`, where the C library has it.
    private static let syncFileRange: SyncFileRange? = {
        #if os(Linux)
            guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "sync_file_range") else {
                return nil
            }
            return unsafeBitCast(symbol, to: SyncFileRange.self)
        #else
            return nil
        #endif
    }()

    /// `SYNC_FILE_RANGE_WRITE`: start writing the range's dirty pages, wait for nothing.
    private static let startWriting: UInt32 = 2

    /// How often the files' dirty pages are handed to the kernel's writeback.
    static let intervalMilliseconds = 10

    /// The files whose dirty pages are written behind: the database, then its WAL.
    private var files: [WrittenFile]
    private var thread: PeriodicThread?

    /// Runs `body` with the database file at `path` and its WAL written behind.
    static func during<T>(databaseAt path: String, _ body: () throws -> T) rethrows -> T {
        let writeBehind = SQLiteWriteBehind(path: path)
        defer { writeBehind?.stop() }
        return try body()
    }

    /// Starts the ticks; nil where `sync_file_range` or a thread is not to be had.
    init?(path: String) {
        guard let syncFileRange = Self.syncFileRange else { return nil }
        files = [WrittenFile(path: path), WrittenFile(path: path + "-wal")]
        do {
            thread = try PeriodicThread(everyMilliseconds: Self.intervalMilliseconds) { [unowned(unsafe) self] in
                for index in files.indices { files[index].startWriting(by: syncFileRange, flags: Self.startWriting) }
            }
        } catch {
            return nil
        }
    }

    /// Ends the ticks (the transaction's commit and checkpoint are done).
    func stop() {
        thread?.stop()
        thread = nil
    }

    deinit { stop() }

    /// How many times each file's writeback was started, the database's then the WAL's (read it
    /// after `stop`).
    var writebacksStarted: [Int] { files.map(\.writebacksStarted) }

    /// One file, reached through a descriptor SQLite holds on it, once one is found.
    private struct WrittenFile {
        let path: String
        private var descriptor: Int32?
        private(set) var writebacksStarted = 0

        init(path: String) { self.path = path }

        mutating func startWriting(by syncFileRange: SyncFileRange, flags: UInt32) {
            if descriptor == nil { descriptor = SQLiteWriteBehind.heldDescriptor(of: path) }
            guard let descriptor, syncFileRange(descriptor, 0, 0, flags) == 0 else { return }
            writebacksStarted += 1
        }
    }

    /// A descriptor this process holds on the regular file at `path`, found among
    /// `/proc/self/fd` by device and inode without opening the file; nil when there is none.
    static func heldDescriptor(of path: String) -> Int32? {
        var file = stat()
        guard stat(path, &file) == 0, let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        let listing = dirfd(directory)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let descriptor = Int32(name), descriptor != listing else { continue }
            var held = stat()
            if fstat(descriptor, &held) == 0, held.st_dev == file.st_dev, held.st_ino == file.st_ino,
                held.st_mode & S_IFMT == S_IFREG
            {
                return descriptor
            }
        }
        return nil
    }
}
