import CivilCalendar
import KPI

/// One scope of a ranked report (`employees`, `merch`) as documents show it: typed columns and
/// rows of cells, so the workbook and the page are written once for both reports.
public struct RankingTable: Sendable {
    /// What a column holds, which decides its number format and alignment.
    public enum Kind: Sendable {
        case text
        case number(MetricFormat)
        /// A change (% vs LY): a percent, with its ▲/▼ beside it.
        case change
    }

    public struct Column: Sendable {
        public var title: String
        public var kind: Kind
        /// Width in characters in the workbook.
        public var width: Double
    }

    public enum Cell: Sendable, Equatable {
        case text(String)
        case number(Double?)
    }

    /// The scope's title (`08 Natick (East)`, `ALL — company`): its sheet's name.
    public var title: String
    /// What the table shows, as a caption.
    public var caption: String
    public var columns: [Column]
    public var rows: [[Cell]]
    /// Which column names the row (a `<th scope="row">` on the page).
    public var rowHeaderColumn: Int
    /// Said instead of an empty table.
    public var emptyText: String
    /// The scope's chart, drawn above its table.
    public var chart: RankingChart?
}

/// A ranked table's chart: horizontal bars of one amount per row, with a note beside each.
public struct RankingChart: Sendable {
    public var title: String
    public var valueTitle: String
    public var format: MetricFormat
    public var rows: [DivergingBarChart.Row]
    /// The table column the bars plot (the workbook's chart reads it from the sheet).
    public var valueColumn: Int
    /// The table column that names each bar.
    public var labelColumn: Int
}

/// A ranked report ready for a document: its title, date and tables.
public struct RankingDocument: Sendable {
    public var title: String
    /// The days covered, in words: `2025-04-01 to 2025-06-30`.
    public var period: String
    /// The report's last day: the workbook's creation time (never the clock).
    public var date: CivilDate
    public var tables: [RankingTable]

    public init(title: String, period: String, date: CivilDate, tables: [RankingTable]) {
        self.title = title
        self.period = period
        self.date = date
        self.tables = tables
    }

    /// How many rows a scope's chart shows at most (the table has them all).
    static let chartRows = 15

    /// The associates report: per scope, each associate's sales metrics, share, LY and projection.
    public init(_ report: EmployeeReport) {
        title = "Associates, \(report.period)"
        period = "\(report.range.start.iso8601) to \(report.range.end.iso8601)"
        date = report.range.end
        let metricColumns: [RankingTable.Column] = [
            .init(title: "Sales", kind: .number(.money), width: 13),
            .init(title: "Trans", kind: .number(.count), width: 8),
            .init(title: "Items", kind: .number(.count), width: 8),
            .init(title: "Avg sale", kind: .number(.moneyWithCents), width: 10),
            .init(title: "UPT", kind: .number(.decimal), width: 7),
            .init(title: "CCP %", kind: .number(.percent), width: 8),
            .init(title: "GP %", kind: .number(.percent), width: 8),
            .init(title: "Share", kind: .number(.percent), width: 8),
        ]
        let columns: [RankingTable.Column] =
            [
                .init(title: "#", kind: .number(.count), width: 5), .init(title: "ID", kind: .text, width: 9),
                .init(title: "Name", kind: .text, width: 24),
            ] + metricColumns + [
                .init(title: "LY sales", kind: .number(.money), width: 13),
                .init(title: "vs LY", kind: .change, width: 9),
                .init(title: "Projected", kind: .number(.money), width: 13),
            ]
        tables = report.scopes.map { scope in
            RankingTable(
                title: scope.title, caption: "\(scope.title) — associates, \(report.period)", columns: columns,
                rows: scope.associates.map { row in
                    [.number(Double(row.rank)), .text(row.employeeId), .text(row.name)]
                        + row.metrics.map { .number($0.value) }
                        + [.number(row.lySales), .number(row.pctVsLY), .number(row.projectedSales)]
                },
                rowHeaderColumn: 2, emptyText: "No associate sales.",
                chart: scope.associates.isEmpty
                    ? nil
                    : RankingChart(
                        title: "Sales by associate, \(report.period)"
                            + (scope.associates.count > Self.chartRows ? " (top \(Self.chartRows))" : ""),
                        valueTitle: NumberText.moneyTitle("Sales"), format: .money,
                        rows: scope.associates.prefix(Self.chartRows).map { row in
                            DivergingBarChart.Row(
                                label: row.name, value: row.metrics.first?.value,
                                note: "vs LY " + NumberText.change(row.pctVsLY), noteValue: row.pctVsLY)
                        }, valueColumn: 3, labelColumn: 2))
        }
    }

    /// The vendor or category report: per scope, each key's sales, items, share and LY.
    public init(_ report: MerchReport) {
        let by = report.dimension == .vendor ? "Vendor" : "Category"
        title = "Sales by \(report.dimension.rawValue), \(report.period)"
        period = "\(report.range.start.iso8601) to \(report.range.end.iso8601)"
        date = report.range.end
        let columns: [RankingTable.Column] = [
            .init(title: "#", kind: .number(.count), width: 5), .init(title: by, kind: .text, width: 32),
            .init(title: "Sales", kind: .number(.money), width: 13),
            .init(title: "Items", kind: .number(.count), width: 9),
            .init(title: "Avg price", kind: .number(.moneyWithCents), width: 11),
            .init(title: "Share", kind: .number(.percent), width: 8),
            .init(title: "LY sales", kind: .number(.money), width: 13), .init(title: "vs LY", kind: .change, width: 9),
            .init(title: "LY #", kind: .number(.count), width: 6),
        ]
        tables = report.scopes.map { scope in
            RankingTable(
                title: scope.title, caption: "\(scope.title) — sales by \(report.dimension.rawValue), \(report.period)",
                columns: columns,
                rows: scope.rows.map { row in
                    [
                        .number(row.rank.map(Double.init)), .text(row.name), .number(row.sales),
                        .number(Double(row.items)),
                        .number(row.averagePrice), .number(row.share), .number(row.lySales), .number(row.pctVsLY),
                        .number(row.rankLY.map(Double.init)),
                    ]
                },
                rowHeaderColumn: 1, emptyText: "No sales.",
                chart: scope.rows.isEmpty
                    ? nil
                    : RankingChart(
                        title: "Share of sales by \(report.dimension.rawValue), \(report.period)", valueTitle: "Share",
                        format: .percent,
                        rows: scope.rows.prefix(Self.chartRows).map { row in
                            DivergingBarChart.Row(
                                label: row.name, value: row.share,
                                note: "vs LY " + NumberText.change(row.pctVsLY), noteValue: row.pctVsLY)
                        }, valueColumn: 5, labelColumn: 1))
        }
    }
}
