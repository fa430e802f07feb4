import CivilCalendar
import Feeds

/// How a column's values are stored, and its type in each backend's dialect.
enum ColumnType: Sendable {
    /// Text (`COLLATE "C"` on PostgreSQL: byte order, as SQLite's `BINARY`).
    case text
    /// A 64-bit integer: counts, and money and percents in exact units (SPEC section 4).
    case integer
    /// A binary floating-point number (only the recomputed `upt`).
    case real

    /// The column type as the backend spells it.
    func sql(_ backend: BackendKind) -> String {
        switch (self, backend) {
        case (.text, .sqlite): return "TEXT"
        case (.text, .postgres): return "TEXT COLLATE \"C\""
        case (.integer, .sqlite): return "INTEGER"
        case (.integer, .postgres): return "BIGINT"
        case (.real, .sqlite): return "REAL"
        case (.real, .postgres): return "DOUBLE PRECISION"
        }
    }
}

/// The database a piece of SQL is written for.
enum BackendKind: Sendable, CaseIterable {
    case sqlite, postgres
}

/// A column of a feed table: its name, its type, and how a record gives its value.
///
/// The value is appended straight to the batch's `PendingValues`, so a row is bound column by
/// column in declaration order, and that order is the only one there is.
struct FeedColumn<Record> {
    let name: String
    let type: ColumnType
    let isNullable: Bool
    /// Whether the column holds a store code of the directory: a foreign key on SQLite; on
    /// PostgreSQL each batch's merge checks it instead (`PostgresSession`).
    var referencesStore = false
    /// Appends the record's value of this column.
    let bind: (Record, inout PendingValues) -> Void

    /// The column's definition in `CREATE TABLE` or `ALTER TABLE … ADD COLUMN`.
    func definition(_ backend: BackendKind) -> String {
        let reference = referencesStore && backend == .sqlite ? " REFERENCES store(code)" : ""
        return "\(name) \(type.sql(backend))\(isNullable ? "" : " NOT NULL")\(reference)"
    }

    /// The `store_code` column: a store of the directory.
    static func store(_ value: @escaping (Record) -> String) -> Self {
        Self(name: "store_code", type: .text, isNullable: false, referencesStore: true) { record, values in
            values.add(value(record))
        }
    }

    /// A text column.
    static func text(_ name: String, _ value: @escaping (Record) -> String) -> Self {
        Self(name: name, type: .text, isNullable: false) { record, values in values.add(value(record)) }
    }

    /// A `YYYY-MM-DD` date column, written through the arena's fast date path.
    static func date(_ name: String, _ value: @escaping (Record) -> CivilDate) -> Self {
        Self(name: name, type: .text, isNullable: false) { record, values in values.add(value(record)) }
    }

    /// A day (`YYYY-MM-DD`) or month (`YYYY-MM`) column for rows of either grain.
    static func grainKey(_ name: String, _ value: @escaping (Record) -> ReportGrain) -> Self {
        Self(name: name, type: .text, isNullable: false) { record, values in
            let grain = value(record)
            if case .day(let date) = grain { values.add(date) } else { values.add(grain.key) }
        }
    }

    /// A non-null integer column.
    static func integer(_ name: String, _ value: @escaping (Record) -> Int64) -> Self {
        Self(name: name, type: .integer, isNullable: false) { record, values in values.add(value(record)) }
    }

    /// A count a record may not know: NOT NULL when `known` (the record's feed requires it, so
    /// a `nil` there is refused by the database rather than stored as 0), else nullable.
    static func count(_ name: String, known: Bool, _ value: @escaping (Record) -> Int?) -> Self {
        Self(name: name, type: .integer, isNullable: !known) { record, values in values.add(value(record)) }
    }

    /// A nullable integer column.
    static func optionalInteger(_ name: String, _ value: @escaping (Record) -> Int64?) -> Self {
        Self(name: name, type: .integer, isNullable: true) { record, values in values.add(value(record)) }
    }

    /// A nullable floating-point column.
    static func optionalReal(_ name: String, _ value: @escaping (Record) -> Double?) -> Self {
        Self(name: name, type: .real, isNullable: true) { record, values in values.add(value(record)) }
    }
}
