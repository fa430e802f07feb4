import GRDB

/// Migration "v9: store opening and closing dates" on both backends (SPEC section 21): the
/// store directory's optional `opened` and `closed` days (`YYYY-MM-DD`, NULL when not given),
/// kept in the store's history like its other values.
enum V09StoreDates: SchemaMigration {
    static let name = "v9: store opening and closing dates"

    /// The columns, in the order the store upsert binds them after `status`.
    static let columns = ["opened", "closed"]

    static func sqlite(_ db: Database) throws {
        for table in ["store", "store_history"] {
            for column in columns { try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(column) TEXT") }
        }
        let storeColumns = try String.fetchAll(
            db, sql: "SELECT name FROM pragma_table_info('store') ORDER BY cid")
        try db.execute(
            sql: "DROP TRIGGER store_history;\n"
                + V06ProvenanceAndHistory.sqliteTrigger(of: "store", columns: storeColumns))
    }

    /// PostgreSQL's history trigger copies by column name, so only the columns are added.
    static let postgresSQL = ["store", "store_history"].flatMap { table in
        columns.map { "ALTER TABLE \(table) ADD COLUMN \($0) TEXT COLLATE \"C\";" }
    }.joined(separator: "\n")
}
