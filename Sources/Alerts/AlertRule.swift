import KPI

/// One `[[alert]]` rule (SPEC section 24): what it watches, when it fires, whom it notifies.
public struct AlertRule: Sendable, Equatable {
    /// What a rule watches.
    public enum Kind: Sendable, Equatable {
        /// A kpi metric of some scopes over one to-date period.
        case metric(MetricWatch)
        /// Check's alarms over the as-of day, counted per store (SPEC section 18).
        case alarms(AlertCondition)
        /// Feed freshness (SPEC section 15): late or missing, or missing only.
        case freshness(missingOnly: Bool)
    }

    /// A metric rule's scope, metric, period and condition.
    public struct MetricWatch: Sendable, Equatable {
        public var scope: AlertScope
        /// The metric's kpi JSON key (`totalSales`).
        public var metric: String
        /// `WTD`, `MTD`, `QTD` or `YTD`.
        public var period: String
        public var condition: AlertCondition
    }

    public var name: String
    public var kind: Kind
    /// Targets by name: `email:ADDRESS` or `webhook:NAME`.
    public var notify: [String]

    /// What decides whether the rule fires, as text: with the name, the key of its alerts'
    /// state, so that a changed rule starts afresh (its `notify` list is not part of it).
    public var definition: String {
        switch kind {
        case .metric(let watch):
            return "metric; scope \(watch.scope.text); metric \(watch.metric); period \(watch.period); "
                + "when \(watch.condition.text)"
        case .alarms(let condition): return "alarms; when \(condition.text)"
        case .freshness(let missingOnly): return "freshness; when \(missingOnly ? "missing" : "late")"
        }
    }
}

/// The scopes a metric rule covers, named as kpi JSON names them.
public enum AlertScope: Sendable, Equatable {
    /// Each store.
    case stores
    /// Each region (`region:East`).
    case regions
    /// The company (`ALL`).
    case all
    /// The comparable stores of the company (`comp:ALL`, SPEC section 21).
    case comparableAll
    /// These stores, each on its own.
    case storeList([String])
    /// One region's total (`region:East`).
    case region(String)

    /// The scope as the rule file writes it.
    public var text: String {
        switch self {
        case .stores: return "stores"
        case .regions: return "regions"
        case .all: return "all"
        case .comparableAll: return "comp:ALL"
        case .storeList(let codes): return "stores=[\(codes.joined(separator: ","))]"
        case .region(let name): return "region=\(name)"
        }
    }
}

/// A comparison of one value with a number: `projectedPctToTarget < -0.05`.
public struct AlertCondition: Sendable, Equatable {
    /// How the value is compared with the threshold.
    public enum Comparison: String, Sendable, CaseIterable {
        case lessOrEqual = "<="
        case greaterOrEqual = ">="
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case greater = ">"
    }

    /// A kpi JSON key (`full.neededPerDay` inside `full`), or `count` for an alarm rule.
    public var key: String
    public var comparison: Comparison
    public var threshold: Double

    /// Whether `value` meets the condition.
    public func holds(_ value: Double) -> Bool {
        switch comparison {
        case .less: return value < threshold
        case .lessOrEqual: return value <= threshold
        case .greater: return value > threshold
        case .greaterOrEqual: return value >= threshold
        case .equal: return value == threshold
        case .notEqual: return value != threshold
        }
    }

    /// The condition as a rule writes it, normalised (`full.neededPerDay > 1200`).
    public var text: String { "\(key) \(comparison.rawValue) \(AlertValue.numberText(threshold))" }

    /// Parses `key OP number`; `nil` when `text` is not of that form.
    public init?(_ text: String) {
        for comparison in Comparison.allCases {
            guard let range = text.range(of: comparison.rawValue) else { continue }
            let key = text[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            let number = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, !key.contains(" "), let threshold = Double(number), threshold.isFinite else {
                return nil
            }
            self.key = key
            self.comparison = comparison
            self.threshold = threshold
            return
        }
        return nil
    }
}

/// An alert's value or threshold: a JSON number as kpi JSON writes it, or a word (a verdict).
public enum AlertValue: Sendable, Equatable {
    case number(String)
    case word(String)

    /// The value in JSON.
    public var json: String {
        switch self {
        case .number(let text): return text
        case .word(let word): return "\"\(word)\""
        }
    }

    /// The value for people.
    public var text: String {
        switch self {
        case .number(let text), .word(let text): return text
        }
    }

    /// A number in shortest round-trip form, integers without `.0`.
    static func numberText(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return value.description
    }
}
