import KPI
import OutputText

/// Renders `MerchReport`s as a text table, CSV or JSON (SPEC section 10); deterministic.
public struct MerchRenderer {
    /// Colour the ▲/▼ changes (only on a terminal, never with `NO_COLOR`; the caller decides).
    public var colour: Bool
    /// The neutral band, "data through" date and banner of the HTML page.
    public var options: DocumentOptions

    public init(colour: Bool = false, options: DocumentOptions = DocumentOptions()) {
        self.colour = colour
        self.options = options
    }

    /// `report` as text: a table, CSV, JSON or an HTML page (a document is
    /// `ReportRenderer.write`'s).
    public func render(_ report: MerchReport, as format: ReportFormat.Text) -> String {
        switch format {
        case .aligned: return text(report)
        case .csv: return csv(report)
        case .json: return json(report)
        case .html: return RankingPage.render(RankingDocument(report), options: options)
        }
    }

    /// Names longer than this are cut with `…`, so a table stays within 120 columns.
    private static let nameWidth = 32

    private func text(_ report: MerchReport) -> String {
        let by = report.dimension == .vendor ? "Vendor" : "Category"
        return report.scopes.map { scope in
            var table = TextTable()
            table.add(["#", by, "Sales", "Items", "Avg price", "Share", "LY sales", "vs LY", "LY #"])
            for row in scope.rows {
                let name =
                    row.name.count > Self.nameWidth ? String(row.name.prefix(Self.nameWidth - 1)) + "…" : row.name
                table.add([
                    row.rank.map(String.init) ?? "", name, NumberText.formatted(row.sales, .money),
                    NumberText.formatted(Double(row.items), .count),
                    NumberText.formatted(row.averagePrice, .moneyWithCents),
                    NumberText.formatted(row.share, .percent), NumberText.formatted(row.lySales, .money),
                    NumberText.change(row.pctVsLY),
                    row.rankLY.map(String.init) ?? "—",
                ])
            }
            let heading =
                "\(ControlCharacters.escaped(scope.title)) — sales by \(report.dimension.rawValue), \(report.period) \(report.range.start.iso8601) to \(report.range.end.iso8601)"
            return heading + "\n"
                + (scope.rows.isEmpty ? "(no sales)\n" : table.render(colour: ChangeColour.painter(colour)))
        }.joined(separator: "\n")
    }

    /// The plain values of a row, by CSV column (`nil`: empty).
    private static func fields(_ row: MerchRow) -> [(name: String, value: String?)] {
        [
            ("totalSales", NumberText.plainMoney(row.sales)), ("totalItems", String(describing: row.items)),
            ("avgPrice", row.averagePrice.map { NumberText.plain($0) }),
            ("share", row.share.map { NumberText.plain($0) }),
            ("lySales", NumberText.plainMoney(row.lySales)), ("pctVsLy", row.pctVsLY.map { NumberText.plain($0) }),
            ("rankLy", row.rankLY.map(String.init)),
        ]
    }

    /// `scope,period,by,rank,key,name,total_sales,total_items,avg_price,share,ly_sales,pct_vs_ly,rank_ly`.
    private func csv(_ report: MerchReport) -> String {
        var lines = ["scope,period,by,rank,key,name,total_sales,total_items,avg_price,share,ly_sales,pct_vs_ly,rank_ly"]
        for scope in report.scopes {
            for row in scope.rows {
                let identity = [
                    scope.scope, report.period, report.dimension.rawValue, row.rank.map(String.init) ?? "", row.key,
                    row.name,
                ]
                lines.append(
                    (identity.map(CSVText.field) + Self.fields(row).map { $0.value ?? "" }).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{"period":"2025Q2","by":"vendor","start":…,"end":…,"lyStart":…,"lyEnd":…,"scopes":[{"scope":"08",
    /// "rows":[{"rank":1,"key":"V104","name":"Yurman, David","totalSales":…,"totalItems":…,"avgPrice":…,"share":…,
    /// "lySales":…,"pctVsLy":…,"rankLy":…}]}]}`; `(other)` has `"rank":null`.
    private func json(_ report: MerchReport) -> String {
        RankingJSON.document(
            [("period", RankingJSON.string(report.period)), ("by", RankingJSON.string(report.dimension.rawValue))],
            range: report.range, lastYear: report.lastYear, rowsNamed: "rows",
            scopes: report.scopes.map { scope in
                (
                    scope.scope,
                    scope.rows.map { row in
                        [
                            ("rank", row.rank.map(String.init) ?? "null"), ("key", RankingJSON.string(row.key)),
                            ("name", RankingJSON.string(row.name)),
                        ]
                            + Self.fields(row).map { ($0.name, $0.value ?? "null") }
                    }
                )
            })
    }
}
