import GRDB

/// Migration "v7: vendor names" (SPEC section 10): the name of each vendor key on its row with
/// the latest date anywhere in the warehouse (a month row as of day 31; ties: the later ingest),
/// kept at ingest like associates' names, with history.
enum V07VendorNames: SchemaMigration {
    static let name = "v7: vendor names"

    /// The table, and its names from the merch rows already there.
    private static func table(integer: String, text: String) -> String {
        """
        CREATE TABLE vendor (
            vendor_key \(text) PRIMARY KEY NOT NULL,
            name \(text) NOT NULL,
            name_as_of \(text) NOT NULL,
            ingest_run_id \(integer),
            source_row \(integer)
        );
        INSERT INTO vendor (vendor_key, name, name_as_of, ingest_run_id, source_row)
        SELECT vendor_key, vendor_name, as_of, ingest_run_id, source_row FROM (
            SELECT vendor_key, vendor_name, as_of, ingest_run_id, source_row,
                row_number() OVER (PARTITION BY vendor_key ORDER BY as_of DESC, ingest_run_id DESC, vendor_name DESC) AS latest
            FROM (
                SELECT vendor_key, vendor_name, CASE WHEN grain = 'month' THEN date || '-31' ELSE date END AS as_of,
                    ingest_run_id, source_row
                FROM merch_report WHERE vendor_key <> ''
            ) AS named
        ) AS ranked WHERE latest = 1;
        """
    }

    static func sqlite(_ db: Database) throws {
        try db.execute(sql: table(integer: "INTEGER", text: "TEXT"))
        try V06ProvenanceAndHistory.addSQLiteHistory(of: "vendor", db)
    }

    static var postgresSQL: String {
        table(integer: "BIGINT", text: "TEXT COLLATE \"C\"") + V06ProvenanceAndHistory.postgresHistory(of: "vendor")
    }
}
