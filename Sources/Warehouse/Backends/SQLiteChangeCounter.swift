import GRDBSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts what a statement does to one table through SQLite's pre-update hook, which SQLite
/// calls before each row an `INSERT`, `UPDATE` or `DELETE` changes, WITHOUT ROWID tables
/// included (https://sqlite.org/c3ref/preupdate_blobwrite.html); an upsert's `DO UPDATE` is an
/// update there. An upsert's change count tells neither inserts from updates nor an update
/// that changes values from one that only makes a later run the key's holder (SPEC section 16):
/// the hook counts the inserts, and the updates whose tracked columns keep their values.
/// Counting the table's rows before and after the file would tell inserts too, but each count
/// reads the whole table.
///
/// Debian's libsqlite3 is built with `SQLITE_ENABLE_PREUPDATE_HOOK`, but `sqlite3.h` declares
/// the functions only under that define, which GRDB's module does not set (nor does GRDB, built
/// against the system SQLite, install a hook of its own, which `count` would replace): they are
/// looked up by name at run time. `loaded` is nil where the loaded SQLite lacks them.
struct SQLiteChangeCounter {
    private typealias Callback =
        @convention(c) (
            UnsafeMutableRawPointer?, OpaquePointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int64, Int64
        ) -> Void
    private typealias InstallHook =
        @convention(c) (OpaquePointer?, Callback?, UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
    private typealias ReadValue =
        @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32

    /// What a statement did to the watched table.
    struct Counts {
        var inserted = 0
        /// Updates that left every tracked column as it was (a new holder's run and row).
        var holders = 0
    }

    /// The table watched, its tracked columns' indices, the functions that read a row's values
    /// before and after, and the counts so far.
    private struct Watch {
        let table: UnsafePointer<CChar>
        let tracked: UnsafeBufferPointer<Int32>
        let old: ReadValue
        let new: ReadValue
        var counts = Counts()
    }

    private let install: InstallHook
    private let old: ReadValue
    private let new: ReadValue

    /// The counter, if the loaded SQLite has the pre-update hook.
    static let loaded: SQLiteChangeCounter? = {
        guard let program = dlopen(nil, RTLD_NOW), let hook = dlsym(program, "sqlite3_preupdate_hook"),
            let old = dlsym(program, "sqlite3_preupdate_old"), let new = dlsym(program, "sqlite3_preupdate_new")
        else { return nil }
        return SQLiteChangeCounter(
            install: unsafeBitCast(hook, to: InstallHook.self), old: unsafeBitCast(old, to: ReadValue.self),
            new: unsafeBitCast(new, to: ReadValue.self))
    }()

    /// Counts the inserts into the watched table of the main database, however a name is
    /// spelled (SQLite's names ignore ASCII case), and its updates that keep the tracked values;
    /// a trigger's changes to another table do not count.
    private static let callback: Callback = { context, connection, operation, database, table, _, _ in
        guard operation == SQLITE_INSERT || operation == SQLITE_UPDATE, let context, let database, let table,
            strcmp(database, "main") == 0
        else { return }
        let watch = context.assumingMemoryBound(to: Watch.self)
        guard sqlite3_stricmp(table, watch.pointee.table) == 0 else { return }
        if operation == SQLITE_INSERT {
            watch.pointee.counts.inserted += 1
        } else if keepsTrackedValues(watch.pointee, connection) {
            watch.pointee.counts.holders += 1
        }
    }

    /// Whether the update being made leaves every tracked column of the row as it was.
    private static func keepsTrackedValues(_ watch: Watch, _ connection: OpaquePointer?) -> Bool {
        for column in watch.tracked {
            var before: OpaquePointer?
            var after: OpaquePointer?
            guard watch.old(connection, column, &before) == SQLITE_OK,
                watch.new(connection, column, &after) == SQLITE_OK,
                same(before, after)
            else { return false }
        }
        return true
    }

    /// Whether two values are the same: type and value (text and blobs byte for byte).
    private static func same(_ a: OpaquePointer?, _ b: OpaquePointer?) -> Bool {
        let type = sqlite3_value_type(a)
        guard type == sqlite3_value_type(b) else { return false }
        switch type {
        case SQLITE_NULL: return true
        case SQLITE_INTEGER: return sqlite3_value_int64(a) == sqlite3_value_int64(b)
        case SQLITE_FLOAT: return sqlite3_value_double(a) == sqlite3_value_double(b)
        default:
            let count = sqlite3_value_bytes(a)
            guard count == sqlite3_value_bytes(b) else { return false }
            guard count > 0 else { return true }
            return memcmp(sqlite3_value_blob(a), sqlite3_value_blob(b), Int(count)) == 0
        }
    }

    /// What `body` does to `table` through `connection`, `tracked` naming the column indices
    /// whose values decide a change; the hook is on the connection only while `body` runs
    /// (SQLite pays for it on every row changed meanwhile).
    func count(in table: String, tracked: [Int32], on connection: OpaquePointer, during body: () throws -> Void)
        rethrows -> Counts
    {
        try table.withCString { name in
            try tracked.withUnsafeBufferPointer { columns in
                var watch = Watch(table: name, tracked: columns, old: old, new: new)
                try withUnsafeMutablePointer(to: &watch) { pointer in
                    _ = install(connection, Self.callback, UnsafeMutableRawPointer(pointer))
                    defer { _ = install(connection, nil, nil) }
                    try body()
                }
                return watch.counts
            }
        }
    }
}
