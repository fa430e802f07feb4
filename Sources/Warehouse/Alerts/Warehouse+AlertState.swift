import CivilCalendar

/// The key of one alert's state (SPEC section 24): a changed rule definition starts afresh.
public struct AlertStateKey: Hashable, Sendable {
    public var rule: String
    public var definition: String
    public var scope: String
    /// The metric or feed id; empty for an alarm rule.
    public var metric: String

    public init(rule: String, definition: String, scope: String, metric: String) {
        self.rule = rule
        self.definition = definition
        self.scope = scope
        self.metric = metric
    }
}

/// An alert that fires, as the warehouse remembers it.
public struct AlertStateRow: Sendable, Equatable {
    public var key: AlertStateKey
    /// The as-of date of the run that saw it start firing.
    public var firingSince: String
    /// Its value as that run's JSON wrote it.
    public var value: String?

    public init(key: AlertStateKey, firingSince: String, value: String?) {
        self.key = key
        self.firingSince = firingSince
        self.value = value
    }
}

extension Warehouse {
    /// Every alert the warehouse remembers as firing.
    public func firingAlerts() throws -> [AlertStateRow] {
        try backend.read { session in
            var rows: [AlertStateRow] = []
            try session.scan(
                "SELECT rule, definition, scope, metric, firing_since, value FROM alert_state "
                    + "ORDER BY rule, definition, scope, metric"
            ) { row in
                rows.append(
                    AlertStateRow(
                        key: AlertStateKey(
                            rule: row.text(0), definition: row.text(1), scope: row.text(2), metric: row.text(3)),
                        firingSince: row.text(4), value: row.optionalText(5)))
            }
            return rows
        }
    }

    /// The latest as-of date a sending `alerts` run recorded; `nil` before the first.
    public func lastAlertSendDate() throws -> CivilDate? {
        try backend.read { session in
            try session.textRows("SELECT max(as_of) FROM alert_send", columns: 1).first?[0]
                .flatMap(CivilDate.init(iso8601:))
        }
    }

    /// Records a sending run in one transaction (SPEC section 24): the alerts that start firing,
    /// those that resolve, the run's as-of date, and its messages in the outbox.
    public func recordAlertRun(
        asOf: CivilDate, started: [AlertStateRow], resolved: [AlertStateKey], messages: [NewOutboxMessage]
    ) throws {
        try backend.transaction { session in
            for row in started {
                try session.execute(
                    "INSERT INTO alert_state (rule, definition, scope, metric, firing_since, value) "
                        + "VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        .text(row.key.rule), .text(row.key.definition), .text(row.key.scope), .text(row.key.metric),
                        .text(row.firingSince), SQLValue(row.value),
                    ])
            }
            for key in resolved {
                try session.execute(
                    "DELETE FROM alert_state WHERE rule = ? AND definition = ? AND scope = ? AND metric = ?",
                    [.text(key.rule), .text(key.definition), .text(key.scope), .text(key.metric)])
            }
            try session.execute(
                "INSERT INTO alert_send (as_of, sent_at) VALUES (?, ?)",
                [.text(asOf.iso8601), .text(UTCTimestamp.now())])
            try Self.insert(messages, session)
            return true
        }
    }
}
