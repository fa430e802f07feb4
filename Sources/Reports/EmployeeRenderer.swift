import KPI
import OutputText

/// Renders `EmployeeReport`s as a text table, CSV or JSON (SPEC section 9); deterministic.
public struct EmployeeRenderer {
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
    public func render(_ report: EmployeeReport, as format: ReportFormat.Text) -> String {
        switch format {
        case .aligned: return text(report)
        case .csv: return csv(report)
        case .json: return json(report)
        case .html: return RankingPage.render(RankingDocument(report), options: options)
        }
    }

    /// How each listed metric prints for people.
    private static let formats: [String: MetricFormat] = [
        "totalSales": .money, "totalTransactions": .count, "totalItems": .count, "avgAds": .moneyWithCents,
        "upt": .decimal,
        "ccpPct": .percent, "gpPct": .percent, "share": .percent,
    ]

    // MARK: - Text

    /// Names longer than this are cut with `…`, so a table stays within 120 columns.
    private static let nameWidth = 20

    private func text(_ report: EmployeeReport) -> String {
        report.scopes.map { scope in
            var table = TextTable()
            table.add([
                "#", "ID", "Name", "Sales", "Trans", "Items", "Avg sale", "UPT", "CCP %", "GP %", "Share", "LY sales",
                "vs LY", "Projected",
            ])
            for row in scope.associates {
                let name =
                    row.name.count > Self.nameWidth ? String(row.name.prefix(Self.nameWidth - 1)) + "…" : row.name
                let values = row.metrics.map { NumberText.formatted($0.value, Self.formats[$0.key] ?? .decimal) }
                table.add(
                    [String(row.rank), row.employeeId, name] + values
                        + [
                            NumberText.formatted(row.lySales, .money), NumberText.change(row.pctVsLY),
                            NumberText.formatted(row.projectedSales, .money),
                        ])
            }
            let heading =
                "\(ControlCharacters.escaped(scope.title)) — associates, \(report.period) \(report.range.start.iso8601) to \(report.range.end.iso8601)"
            let body =
                scope.associates.isEmpty ? "(no associate sales)\n" : table.render(colour: ChangeColour.painter(colour))
            return heading + "\n" + body
        }.joined(separator: "\n")
    }

    // MARK: - CSV

    /// `scope,rank,employee_id,employee_name,metric,actual,ly,pct_vs_ly,projected`: one row per
    /// associate and metric; `ly`, `pct_vs_ly` and `projected` for `totalSales` only.
    private func csv(_ report: EmployeeReport) -> String {
        var lines = ["scope,rank,employee_id,employee_name,metric,actual,ly,pct_vs_ly,projected"]
        for scope in report.scopes {
            for row in scope.associates {
                let identity = [scope.scope, String(row.rank), row.employeeId, row.name].map(CSVText.field)
                for (key, value) in row.metrics {
                    let sales = key == "totalSales"
                    let extra =
                        sales
                        ? [
                            NumberText.plainMoney(row.lySales), row.pctVsLY.map { NumberText.plain($0) } ?? "",
                            NumberText.plainMoney(row.projectedSales),
                        ]
                        : ["", "", ""]
                    lines.append(
                        (identity + [key, value.map { NumberText.plain($0, Self.formats[key] ?? .decimal) } ?? ""]
                            + extra).joined(separator: ","))
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - JSON

    /// `{"asOf":…,"period":"MTD","start":…,"end":…,"lyStart":…,"lyEnd":…,"scopes":[{"scope":"08",
    /// "associates":[{"rank":1,"employeeId":"0042","employeeName":"…","metrics":{"totalSales":{"actual":…,"ly":…,
    /// "pctVsLy":…,"projected":…},"totalTransactions":{"actual":…},…,"share":{"actual":…}}}]}]}`.
    private func json(_ report: EmployeeReport) -> String {
        RankingJSON.document(
            [("asOf", RankingJSON.string(report.asOf.iso8601)), ("period", RankingJSON.string(report.period))],
            range: report.range, lastYear: report.lastYear, rowsNamed: "associates",
            scopes: report.scopes.map { scope in
                (
                    scope.scope,
                    scope.associates.map { row in
                        let metrics = row.metrics.map { key, value in
                            var fields = [
                                ("actual", value.map { NumberText.plain($0, Self.formats[key] ?? .decimal) } ?? "null")
                            ]
                            if key == "totalSales" {
                                fields += [
                                    ("ly", NumberText.plainMoney(row.lySales)),
                                    ("pctVsLy", row.pctVsLY.map { NumberText.plain($0) } ?? "null"),
                                    ("projected", NumberText.plainMoney(row.projectedSales)),
                                ]
                            }
                            return (key, RankingJSON.object(fields))
                        }
                        return [
                            ("rank", String(row.rank)), ("employeeId", RankingJSON.string(row.employeeId)),
                            ("employeeName", RankingJSON.string(row.name)), ("metrics", RankingJSON.object(metrics)),
                        ]
                    }
                )
            })
    }
}
