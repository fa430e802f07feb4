import KPI
import Plot

/// A report as one self-contained HTML page (SPEC section 12): inline CSS and SVG, no scripts,
/// fonts, images or links; markup built with Plot, which escapes every text.
///
/// Each scope is a `<section>` that starts a printed page: the review's monthly-sales chart and
/// quarter table side by side, then the months table; the last scope (the company, or the
/// region) adds % to target per store as horizontal bars. kpi has one to-date table per scope.
public enum HTMLReport {
    public static func render(_ report: KPIReport) -> String {
        let title: String
        let sections: [Node<HTML.BodyContext>]
        switch report.kind {
        case .review(let quarter):
            title = "Quarterly review \(quarter)"
            sections = report.scopes.enumerated().map { index, scope in
                .component(
                    Deferred {
                        let isLast = index == report.scopes.count - 1 && !isStore(scope)
                        return reviewSection(scope, storeBars: isLast ? storeBars(report) : nil)
                    })
            }
        case .kpi(let asOf):
            title = "KPIs as of \(asOf)"
            sections = report.scopes.map { scope in .component(Deferred { kpiSection(scope) }) }
        }
        let page = HTML(
            .lang(.english),
            .head(
                .meta(.charset(.utf8)),
                .element(named: "title", text: title),
                .style(HTMLStyle.css)
            ),
            .body(.h1(.text(title)), .group(sections))
        )
        return page.render() + "\n"
    }

    // MARK: - Review

    private static func reviewSection(_ scope: ScopeValues, storeBars: DivergingBarChart?) -> Node<HTML.BodyContext> {
        .section(
            .class("scope"),
            .h2(.text(scope.title)),
            .div(.class("row"), .div(.class("chart"), salesChart(scope).svg()), quarterTable(scope)),
            monthTable(scope),
            .unwrap(storeBars) { .div(.class("chart"), $0.svg()) }
        )
    }

    /// Monthly sales, actual against target.
    private static func salesChart(_ scope: ScopeValues) -> ColumnChart {
        let months = Array(scope.periods.dropLast())
        let sales = months.map { $0.metrics[0] }
        return ColumnChart(
            title: "Monthly sales: actual vs target", categories: months.map(\.label),
            series: [
                .init(name: "Actual", className: "actual", values: sales.map(\.actual)),
                .init(name: "Target", className: "target", values: sales.map(\.target)),
            ],
            categoryTitle: "Month", valueTitle: "Sales ($)", valueLabel: { NumberText.formatted($0, .money) })
    }

    /// The quarter's sales % to target of every store in the report, in scope order.
    private static func storeBars(_ report: KPIReport) -> DivergingBarChart? {
        let stores = report.scopes.filter(isStore)
        guard !stores.isEmpty else { return nil }
        return DivergingBarChart(
            title: "Quarter sales % to target per store", valueTitle: "% to target",
            rows: stores.map { (label: $0.title, value: $0.periods.last?.metrics[0].pctToTarget) })
    }

    private static func isStore(_ scope: ScopeValues) -> Bool {
        scope.scope != "ALL" && !scope.scope.hasPrefix("region:")
    }

    private static func quarterTable(_ scope: ScopeValues) -> Node<HTML.BodyContext> {
        guard let quarter = scope.periods.last else { return .empty }
        return table(
            caption: "\(scope.title) — \(quarter.label)",
            groups: [],
            columns: ["Actual", "Target", "vs target", "LY", "vs LY"],
            cells: { index, metric in
                let value = quarter.metrics[index]
                return [
                    amount(value.actual, metric), amount(value.target, metric), change(value.pctToTarget),
                    amount(value.ly, metric), change(value.pctVsLY),
                ]
            })
    }

    private static func monthTable(_ scope: ScopeValues) -> Node<HTML.BodyContext> {
        let months = Array(scope.periods.dropLast())
        return table(
            caption: "\(scope.title) — by month",
            groups: months.map { ($0.label, 3) },
            columns: months.flatMap { _ in ["Actual", "vs target", "vs LY"] },
            cells: { index, metric in
                months.flatMap { month in
                    let value = month.metrics[index]
                    return [amount(value.actual, metric), change(value.pctToTarget), change(value.pctVsLY)]
                }
            })
    }

    // MARK: - kpi

    private static func kpiSection(_ scope: ScopeValues) -> Node<HTML.BodyContext> {
        .section(
            .class("scope"),
            .h2(.text(scope.title)),
            table(
                caption: "\(scope.title) — to date",
                groups: scope.periods.map { ("\($0.label) \($0.range.start.iso8601) to \($0.range.end.iso8601)", 3) },
                columns: scope.periods.flatMap { _ in ["Actual", "Target", "vs target"] },
                cells: { index, metric in
                    scope.periods.flatMap { period in
                        let value = period.metrics[index]
                        return [amount(value.actual, metric), amount(value.target, metric), change(value.pctToTarget)]
                    }
                })
        )
    }

    // MARK: - Tables

    /// A metric per row (`<th scope="row">`), column groups over the column headers
    /// (`<th scope="colgroup">`), and a header that repeats on every printed page.
    private static func table(
        caption: String, groups: [(String, Int)], columns: [String],
        cells: (Int, MetricDefinition) -> [Node<HTML.TableRowContext>]
    ) -> Node<HTML.BodyContext> {
        let groupRow: Node<HTML.TableContext> =
            groups.isEmpty
            ? .empty
            : .tr(
                .element(named: "td"),
                .forEach(groups) { title, span in
                    .element(
                        named: "th",
                        nodes: [
                            .attribute(named: "scope", value: "colgroup"),
                            .attribute(named: "colspan", value: String(span)), .text(title),
                        ])
                })
        return .table(
            .caption(.text(caption)),
            .thead(
                groupRow,
                .tr(
                    .element(named: "th", nodes: [.attribute(named: "scope", value: "col"), .text("Metric")]),
                    .forEach(columns) {
                        .element(named: "th", nodes: [.attribute(named: "scope", value: "col"), .text($0)])
                    })),
            .tbody(
                .forEach(Array(MetricDefinition.all.enumerated())) { index, metric in
                    .tr(
                        .element(named: "th", nodes: [.attribute(named: "scope", value: "row"), .text(metric.label)]),
                        .group(cells(index, metric)))
                })
        )
    }

    private static func amount(_ value: Double?, _ metric: MetricDefinition) -> Node<HTML.TableRowContext> {
        .td(.text(NumberText.formatted(value, metric.format)))
    }

    /// A change with its ▲/▼ text, coloured by the same sign.
    private static func change(_ value: Double?) -> Node<HTML.TableRowContext> {
        let text = NumberText.change(value)
        let className = text.hasPrefix("▲") ? "up-text" : text.hasPrefix("▼") ? "down-text" : "level"
        return .td(.class(className), .text(text))
    }
}

/// A section built only when Plot renders it, so a 1,000-store page never holds every
/// section's nodes at once.
private struct Deferred: Component {
    let make: () -> Node<HTML.BodyContext>
    var body: Component { make() }
}
