import GRDB

/// One step of the warehouse's schema, on both backends under one name: its SQLite step and
/// the same in PostgreSQL's dialect. Shipped steps are never edited; a change is a new step,
/// appended to `Schema.migrations`.
///
/// PostgreSQL keeps dates as `YYYY-MM-DD` text, as SQLite does, so that both backends compare,
/// group and print them alike; every text column is `COLLATE "C"` (byte order, as SQLite's
/// `BINARY`: the same sort order on any server, and keys compared without the locale's rules,
/// which slow inserts: docs/decisions.md#measured-reasons-behind-the-code); money and percents
/// are the same exact integers (`BIGINT`); the two weighted rollup sums, which can pass 64 bits,
/// are decimal text on both. The feed tables' store references are checked by each merge
/// (`PostgresSession`) rather than by foreign keys.
protocol SchemaMigration {
    /// The step's name, as both backends record it once applied.
    static var name: String { get }
    /// The SQLite step, inside the migrator's transaction.
    static func sqlite(_ db: Database) throws
    /// The PostgreSQL step, run in one transaction with its record.
    static var postgresSQL: String { get }
}

/// One step as the backends run it.
struct SchemaStep {
    let name: String
    let sqlite: (Database) throws -> Void
    let postgresSQL: String

    /// The step `migration` defines.
    init<Migration: SchemaMigration>(_ migration: Migration.Type) {
        name = Migration.name
        sqlite = Migration.sqlite
        postgresSQL = Migration.postgresSQL
    }
}

/// The warehouse's schema: every step in the order both backends apply it.
enum Schema {
    static let migrations: [SchemaStep] = [
        SchemaStep(V01StoresAndGoals.self), SchemaStep(V01IngestLedger.self), SchemaStep(V01FeedTables.self),
        SchemaStep(V02FeedTablesKeyedDateFirst.self), SchemaStep(V03MoneyInCentsAndMillionths.self),
        SchemaStep(V04AssociatesVendorsCategories.self), SchemaStep(V05StoreMonthRollups.self),
        SchemaStep(V06ProvenanceAndHistory.self), SchemaStep(V07VendorNames.self),
        SchemaStep(V08AlarmsInTheLedger.self),
        SchemaStep(V09StoreDates.self), SchemaStep(V10HistoryRowsBuiltOnce.self), SchemaStep(V11UndoRuns.self),
        SchemaStep(V12RunActors.self), SchemaStep(V13OptionalSalesMeasures.self),
        SchemaStep(V14AlertStateAndOutbox.self), SchemaStep(V15AccessScopes.self),
        SchemaStep(V16SalesWeeksAndClosedDays.self),
    ]
}

extension Warehouse {
    /// The SQLite warehouse's migrator: `Schema.migrations`, each under its name.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in Schema.migrations {
            migrator.registerMigration(migration.name, migrate: migration.sqlite)
        }
        return migrator
    }
}
