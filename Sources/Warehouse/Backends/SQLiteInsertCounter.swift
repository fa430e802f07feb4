import GRDBSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts the rows a statement inserts into one table through SQLite's pre-update hook, which
/// SQLite calls before each row an `INSERT`, `UPDATE` or `DELETE` changes, WITHOUT ROWID tables
/// included (https://sqlite.org/c3ref/preupdate_blobwrite.html); an upsert's `DO UPDATE` is an
/// update there. An upsert's change count does not tell inserts from updates; counting the
/// table's rows before and after the file does, but each count reads the whole table: two
/// thirds of the CPU of a nightly 1,000-row file into a warehouse of a million rows.
///
/// Debian's libsqlite3 is built with `SQLITE_ENABLE_PREUPDATE_HOOK`, but `sqlite3.h` declares
/// the function only under that define, which GRDB's module does not set (nor does GRDB, built
/// against the system SQLite, install a hook of its own, which `inserts` would replace): it is
/// looked up by name at run time. `loaded` is nil where the loaded SQLite lacks it.
struct SQLiteInsertCounter {
    private typealias Callback =
        @convention(c) (
            UnsafeMutableRawPointer?, OpaquePointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int64, Int64
        ) -> Void
    private typealias InstallHook =
        @convention(c) (OpaquePointer?, Callback?, UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?

    /// The table watched and the inserts into it so far.
    private struct Watch {
        let table: UnsafePointer<CChar>
        var inserted = 0
    }

    /// `sqlite3_preupdate_hook`.
    private let install: InstallHook

    /// The counter, if the loaded SQLite has the pre-update hook.
    static let loaded: SQLiteInsertCounter? = {
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "sqlite3_preupdate_hook") else {
            return nil
        }
        return SQLiteInsertCounter(install: unsafeBitCast(symbol, to: InstallHook.self))
    }()

    /// Counts the inserts into the watched table of the main database, however a name is
    /// spelled (SQLite's names ignore ASCII case): a trigger's inserts into another table do
    /// not count, a trigger's into the same table would (as the table's growth counts them).
    private static let callback: Callback = { context, _, operation, database, table, _, _ in
        guard operation == SQLITE_INSERT, let context, let database, let table, strcmp(database, "main") == 0 else {
            return
        }
        let watch = context.assumingMemoryBound(to: Watch.self)
        if sqlite3_stricmp(table, watch.pointee.table) == 0 { watch.pointee.inserted += 1 }
    }

    /// The rows `body` inserts into `table` through `connection`; the hook is on the connection
    /// only while `body` runs (SQLite pays for it on every row changed meanwhile).
    func inserts(into table: String, on connection: OpaquePointer, during body: () throws -> Void) rethrows -> Int {
        try table.withCString { name in
            var watch = Watch(table: name)
            try withUnsafeMutablePointer(to: &watch) { pointer in
                _ = install(connection, Self.callback, UnsafeMutableRawPointer(pointer))
                defer { _ = install(connection, nil, nil) }
                try body()
            }
            return watch.inserted
        }
    }
}
