/// What one run did to one store's rows (SPEC section 16: `runs show`).
public struct RunStoreCount: Sendable, Equatable, Codable {
    public var store: String
    public var inserted: Int
    public var updated: Int
    public var unchanged: Int
    /// The first and last date key the run wrote for the store (`YYYY-MM-DD`, or `YYYY-MM`).
    public var firstDate: String
    public var lastDate: String
}

/// One key a run changed: the values it replaced and the ones it wrote, column by column.
public struct RunChange: Sendable, Equatable, Codable {
    /// A column whose value the run changed, as stored (money in cents, percents in millionths).
    public struct Column: Sendable, Equatable, Codable {
        public var name: String
        public var old: String?
        public var new: String?
    }

    public var table: String
    /// The key's columns and values, in key order.
    public var key: [Column]
    public var columns: [Column]
}

/// A run's ledger row and what it changed.
public struct RunDetails: Sendable, Equatable, Codable {
    public var run: IngestRun
    public var stores: [RunStoreCount]
    /// How many keys the run changed (their earlier values are in history; keys it re-sent
    /// unchanged are not counted).
    public var changedKeys: Int
    /// Up to the limit asked for, in key order.
    public var changes: [RunChange]
}

extension Warehouse {
    /// Run `id`'s ledger row, its per-store counts, and up to `limit` of the keys it updated
    /// with old and new values; `nil` when there is no such run.
    public func runDetails(id: Int64, limit: Int) throws -> RunDetails? {
        let scoped = try readerScope() != nil
        return try backend.read { session in
            guard
                let run = try Self.runs(session, condition: "id = ?", [.integer(id)], limit: 1, scoped: scoped).first
            else {
                return nil
            }
            var stores: [RunStoreCount] = []
            try session.scan(
                """
                SELECT store_code, inserted, updated, unchanged, first_date, last_date FROM ingest_run_store
                WHERE run_id = ? ORDER BY store_code
                """, [.integer(id)]
            ) { row in
                stores.append(
                    RunStoreCount(
                        store: row.text(0), inserted: Int(row.int64(1)), updated: Int(row.int64(2)),
                        unchanged: Int(row.int64(3)),
                        firstDate: row.text(4), lastDate: row.text(5)))
            }
            var changedKeys = 0
            var changes: [RunChange] = []
            for table in HistoryTable.all {
                changedKeys += Int(
                    try session.integer(
                        "SELECT count(*) FROM \(table.history) AS earlier WHERE \(Self.changedBy(table))",
                        [.integer(id), .integer(id), .integer(id)]) ?? 0)
                guard changes.count < limit else { continue }
                changes += try Self.changes(in: table, by: id, limit: limit - changes.count, session)
            }
            return RunDetails(run: run, stores: stores, changedKeys: changedKeys, changes: changes)
        }
    }

    /// The condition on a history entry `earlier` that run `?` replaced its values with others:
    /// neither the row it holds nor the entry of its own values, if a later run holds the key,
    /// has the same values (a key it re-sent unchanged has). Takes the run three times.
    private static func changedBy(_ table: HistoryTable) -> String {
        let data = table.dataColumns
        let run = HistoryTable.runColumn
        return """
            earlier.\(HistoryTable.replacedByColumn) = ?
                AND NOT EXISTS (SELECT 1 FROM \(table.name) AS written WHERE \(table.keyMatch("written", "earlier"))
                    AND written.\(run) = ? AND \(RunHistorySplit.sameValues(data, "written", "earlier")))
                AND NOT EXISTS (SELECT 1 FROM \(table.history) AS written WHERE \(table.keyMatch("written", "earlier"))
                    AND written.\(run) = ? AND \(RunHistorySplit.sameValues(data, "written", "earlier")))
            """
    }

    /// The keys `run` updated in `table`, with the values it replaced and the ones it wrote
    /// (the row as it is, or, when a later run changed it again, the values history kept).
    private static func changes(in table: HistoryTable, by run: Int64, limit: Int, _ session: some SQLSession) throws
        -> [RunChange]
    {
        let data = table.dataColumns
        let columns = table.key + data
        var old: [[String?]] = []
        try session.scan(
            """
            SELECT \(columns.joined(separator: ", ")) FROM \(table.history) AS earlier WHERE \(changedBy(table))
            ORDER BY \(table.key.joined(separator: ", ")) LIMIT ?
            """, [.integer(run), .integer(run), .integer(run), .integer(Int64(limit))]
        ) { row in old.append((0..<Int32(columns.count)).map { row.optionalText($0) }) }
        let byKey = table.key.map { "\($0) = ?" }.joined(separator: " AND ")
        return try old.map { values in
            let keyValues = Array(values.prefix(table.key.count))
            let arguments = keyValues.map { SQLValue($0) }
            var new = try session.textRows(
                "SELECT \(data.joined(separator: ", ")) FROM \(table.name) WHERE \(byKey) AND \(HistoryTable.runColumn) = ?",
                arguments + [.integer(run)], columns: data.count
            ).first
            if new == nil {
                new = try session.textRows(
                    "SELECT \(data.joined(separator: ", ")) FROM \(table.history) WHERE \(byKey) AND \(HistoryTable.runColumn) = ?",
                    arguments + [.integer(run)], columns: data.count
                ).first
            }
            let oldData = Array(values.dropFirst(table.key.count))
            let changed = data.indices.compactMap { index -> RunChange.Column? in
                let after = new?[index] ?? nil
                return oldData[index] == after
                    ? nil : RunChange.Column(name: data[index], old: oldData[index], new: after)
            }
            return RunChange(
                table: table.name,
                key: zip(table.key, keyValues).map { RunChange.Column(name: $0, old: nil, new: $1) },
                columns: changed)
        }
    }
}
