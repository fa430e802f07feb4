import CivilCalendar
import KPI
import Plot

/// A report as one self-contained HTML page (SPEC sections 12 and 20): inline CSS and SVG, no
/// scripts, fonts, images or links; markup built with Plot, which escapes every text.
///
/// The review opens on the story of its top scope (the company, the region, or the one store):
/// a card per headline metric, the stores ranked by sales % to target (best first, vs LY beside
/// each), and the top scope's months as actual, target and LY. The detail follows, each scope
/// from a new printed page, in the one scope order (stores, regions, `All stores`); a one-store
/// review keeps summary and detail on one page.
/// kpi opens on sales % to target by scope for the month to date, then one to-date table per
/// scope, several to a printed page.
public enum HTMLReport {
    public static func render(_ report: KPIReport, options: DocumentOptions = DocumentOptions()) -> String {
        ReportPage(report: report, options: options).render()
    }
}

/// The page of one report.
private struct ReportPage {
    let report: KPIReport
    let options: DocumentOptions

    func render() -> String {
        switch report.kind {
        case .review(let quarter):
            let range = report.scopes.first?.periods.last?.range
            let page = DocumentPage(
                title: "Quarterly review \(quarter)",
                period: range.map { "\(quarter): \($0.start.iso8601) to \($0.end.iso8601)" } ?? quarter,
                options: options)
            let details = detailOrder.map { scope in Node<HTML.BodyContext>.component(Deferred { reviewSection(scope) })
            }
            return page.render(.group([summary(quarter: quarter)] + details))
        case .kpi(let asOf):
            let page = DocumentPage(
                title: "KPIs as of \(asOf)",
                period: "week, month, quarter and year to date, \(report.asOfHeading(asOf))",
                options: options)
            let sections = report.scopes.map { scope in Node<HTML.BodyContext>.component(Deferred { kpiSection(scope) })
            }
            return page.render(.group([kpiChart()] + sections))
        }
    }

    // MARK: - The review's summary

    /// The detail sections in the one scope order of every format (SPEC section 22): stores by
    /// code, regions by name, `All stores`, then the comp scopes.
    private var detailOrder: [ScopeValues] { report.scopes }

    /// Whether the review covers one store only: its summary and detail share one printed page.
    private var isOneStore: Bool { report.regularScopes.count == 1 && report.stores.count == 1 }

    private func summary(quarter: String) -> Node<HTML.BodyContext> {
        let top = report.topScope
        return .section(
            .class(isOneStore ? "scope summary one-store" : "scope summary"),
            .h2(
                .text(
                    "\(top?.title ?? "Stores") — \(report.scopes.first?.periods.last.map(GoalText.periodLabel) ?? quarter) at a glance"
                )),
            .unwrap(top.flatMap(Headline.sentence)) { .p(.class("headline"), .text($0)) },
            misses(),
            .unwrap(top) { cards($0, comparable: report.topComparableScope) },
            .div(
                .class("row"),
                .if(report.stores.count > 1, .div(.class("chart"), rankedStores().svg())),
                .unwrap(isOneStore ? nil : top) { .div(.class("chart"), salesChart($0).svg()) }
            )
        )
    }

    /// The stores and headline metrics furthest behind target, worst first, so page 1 names them.
    private func misses() -> Node<HTML.BodyContext> {
        .group(
            missLine("Stores furthest behind target: ", report.storesBehindTarget()),
            missLine("Behind target: ", report.metricsBehindTarget()))
    }

    private func missLine(_ lead: String, _ misses: [(label: String, pctToTarget: Double)]) -> Node<HTML.BodyContext> {
        guard !misses.isEmpty else { return .empty }
        return .p(
            .class("misses"),
            .text(lead),
            .forEach(Array(misses.enumerated())) { index, miss in
                .group(
                    .text((index > 0 ? ", " : "") + miss.label + " "),
                    .span(
                        .class(ChangeTone(miss.pctToTarget, band: options.neutralBand).className),
                        .text(NumberText.change(miss.pctToTarget))))
            })
    }

    /// The headline cards of `scope`; the Sales card also shows the comp sales % vs LY of
    /// `comparable` beside the total's (SPEC section 21).
    private func cards(_ scope: ScopeValues, comparable: ScopeValues?) -> Node<HTML.BodyContext> {
        guard let quarter = scope.periods.last else { return .empty }
        let comp = comparable?.periods.last
        let metrics = Array(zip(report.metrics, quarter.metrics).prefix(KPIReport.headlineCount))
        return .div(
            .class("cards"),
            .forEach(metrics) { definition, value in
                .div(
                    .class("card"),
                    .h3(.text(definition.label)),
                    .p(.class("actual"), .text(NumberText.actual(value, definition.format))),
                    .dl(
                        .dt("Target"), .dd(.text(NumberText.target(value.target, definition.format))),
                        .dt("vs target"), changeItem(value.pctToTarget),
                        .dt("LY"), .dd(.text(NumberText.formatted(value.ly, definition.format))),
                        .dt("vs LY"), changeItem(value.pctVsLY),
                        .unwrap(pace(value, definition, range: quarter.range)) { pace in
                            .group(.dt("Pace"), changeItem(pace))
                        }
                    ),
                    .unwrap(
                        definition.key == "totalSales" && quarter.isRunning
                            ? GoalText.whatItTakes(value, definition.format) : nil
                    ) {
                        .p(.class("goal"), .text($0))
                    },
                    .unwrap(definition.key == "totalSales" ? comp : nil) { comp in
                        .p(
                            .text("Comparable stores (\(comp.comparableStores ?? 0)): "),
                            .span(
                                .class(ChangeTone(comp.metrics.first?.pctVsLY, band: options.neutralBand).className),
                                .text(NumberText.change(comp.metrics.first?.pctVsLY))),
                            .text(" vs LY"))
                    }
                )
            })
    }

    /// For a running quarter, where an additive metric lands against the whole quarter's target
    /// (SPEC sections 11 and 22); for a whole quarter with data through a day before its end, the
    /// linear pace to the quarter's target.
    private func pace(_ value: MetricValue, _ definition: MetricDefinition, range: DateRange) -> Double? {
        if let full = value.full { return full.projection?.pctToTarget }
        guard definition.isAdditive, let through = options.dataThrough, through < range.end, through >= range.start,
            let actual = value.actual
        else { return nil }
        return Projection(
            actual: actual, elapsedDays: through.daysSinceEpoch - range.start.daysSinceEpoch + 1,
            fullDays: range.end.daysSinceEpoch - range.start.daysSinceEpoch + 1, fullTarget: value.target
        ).pctToTarget
    }

    private func changeItem(_ value: Double?) -> Node<HTML.DescriptionListContext> {
        .dd(.class(ChangeTone(value, band: options.neutralBand).className), .text(NumberText.change(value)))
    }

    /// The stores ranked by the quarter's sales % to target, best first (none last), vs LY beside.
    private func rankedStores() -> DivergingBarChart {
        let rows = report.storesByPctToTarget.map { scope -> DivergingBarChart.Row in
            let sales = scope.periods.last?.metrics.first
            return DivergingBarChart.Row(
                label: KPIReport.rankingLabel(scope), value: sales?.pctToTarget,
                note: "vs LY " + NumberText.change(sales?.pctVsLY),
                noteValue: sales?.pctVsLY)
        }
        let running = report.scopes.first?.periods.last.flatMap { $0.isRunning ? GoalText.periodLabel($0) : nil }
        var chart = DivergingBarChart(
            title: running.map { "Stores by sales % to target, \($0)" } ?? "Stores by quarter sales % to target",
            valueTitle: "% to target", rows: rows)
        chart.neutralBand = options.neutralBand
        return chart
    }

    /// Monthly sales: actual, target and last year.
    private func salesChart(_ scope: ScopeValues) -> ColumnChart {
        let months = Array(scope.periods.dropLast())
        let sales = months.map { $0.metrics[0] }
        return ColumnChart(
            title: "Monthly sales: actual, target and LY", categories: months.map(\.label),
            series: [
                .init(name: "Actual", className: "actual", values: sales.map(\.actual)),
                .init(name: "Target", className: "target", values: sales.map(\.target)),
                .init(name: "LY", className: "ly", values: sales.map(\.ly)),
            ],
            categoryTitle: "Month", valueTitle: NumberText.moneyTitle("Sales"),
            valueLabel: { NumberText.formatted($0, .money) })
    }

    // MARK: - The review's detail

    private func reviewSection(_ scope: ScopeValues) -> Node<HTML.BodyContext> {
        .section(
            .class(isOneStore ? "scope one-store" : "scope page-start"),
            .if(!isOneStore, .h2(.text(scope.title))),
            .div(
                .class("row"),
                // The top scope's chart already stands on the summary page, but for one store.
                .if(
                    isOneStore || scope.scope != report.topScope?.scope,
                    .div(.class("chart"), salesChart(scope).svg())),
                quarterTable(scope)),
            monthTable(scope)
        )
    }

    private func quarterTable(_ scope: ScopeValues) -> Node<HTML.BodyContext> {
        guard let quarter = scope.periods.last else { return .empty }
        return table(
            caption: "\(scope.title) — \(GoalText.periodLabel(quarter))",
            groups: [],
            columns: ["Actual", "Target", "vs target", "LY", "vs LY"],
            cells: { index, metric in
                let value = quarter.metrics[index]
                return [
                    actual(value, metric), target(value.target, metric), change(value.pctToTarget),
                    amount(value.ly, metric), change(value.pctVsLY),
                ]
            })
    }

    private func monthTable(_ scope: ScopeValues) -> Node<HTML.BodyContext> {
        let months = Array(scope.periods.dropLast())
        return table(
            caption: "\(scope.title) — by month",
            groups: months.map { (GoalText.periodLabel($0), 3) },
            columns: months.flatMap { _ in ["Actual", "vs target", "vs LY"] },
            cells: { index, metric in
                months.flatMap { month in
                    let value = month.metrics[index]
                    return [actual(value, metric), change(value.pctToTarget), change(value.pctVsLY)]
                }
            })
    }

    // MARK: - kpi

    /// Month-to-date sales % to target per scope, with its pace beside.
    private func kpiChart() -> Node<HTML.BodyContext> {
        guard let month = report.scopes.first?.periods.first(where: { $0.label == "MTD" }) else { return .empty }
        let rows = report.scopes.map { scope -> DivergingBarChart.Row in
            let sales = scope.periods.first { $0.label == "MTD" }?.metrics.first
            let pace = sales?.projection?.pctToTarget
            return DivergingBarChart.Row(
                label: scope.title, value: sales?.pctToTarget, note: pace.map { "pace " + NumberText.change($0) },
                noteValue: pace)
        }
        var chart = DivergingBarChart(
            title: "Sales % to target by scope, MTD \(month.range.start.iso8601) to \(month.range.end.iso8601)",
            valueTitle: "% to target", rows: rows)
        chart.neutralBand = options.neutralBand
        return .div(.class("chart"), chart.svg())
    }

    private func kpiSection(_ scope: ScopeValues) -> Node<HTML.BodyContext> {
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
                        return [actual(value, metric), target(value.target, metric), change(value.pctToTarget)]
                    }
                })
        )
    }

    // MARK: - Tables

    /// A metric per row (`<th scope="row">`), column groups over the column headers
    /// (`<th scope="colgroup">`), and a header that repeats on every printed page.
    private func table(
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
        return .tableBox(
            .table(
                .caption(.text(caption)),
                .thead(
                    .printedTitle(caption, columns: columns.count + 1),
                    groupRow,
                    .tr(
                        .element(named: "th", nodes: [.attribute(named: "scope", value: "col"), .text("Metric")]),
                        .forEach(columns) {
                            .element(named: "th", nodes: [.attribute(named: "scope", value: "col"), .text($0)])
                        })),
                .tbody(
                    .forEach(Array(report.metrics.enumerated())) { index, metric in
                        .tr(
                            .element(
                                named: "th", nodes: [.attribute(named: "scope", value: "row"), .text(metric.label)]),
                            .group(cells(index, metric)))
                    })
            ))
    }

    /// A metric's actual cell: `no data` when its feed has none in the period.
    private func actual(_ value: MetricValue, _ metric: MetricDefinition) -> Node<HTML.TableRowContext> {
        .td(.text(NumberText.actual(value, metric.format)))
    }

    private func amount(_ value: Double?, _ metric: MetricDefinition) -> Node<HTML.TableRowContext> {
        .td(.text(NumberText.formatted(value, metric.format)))
    }

    /// A target cell: a prorated count target keeps its decimal.
    private func target(_ value: Double?, _ metric: MetricDefinition) -> Node<HTML.TableRowContext> {
        .td(.text(NumberText.target(value, metric.format)))
    }

    /// A change with its ▲/▼ text, coloured only outside the neutral band.
    private func change(_ value: Double?) -> Node<HTML.TableRowContext> {
        .td(.class(ChangeTone(value, band: options.neutralBand).className), .text(NumberText.change(value)))
    }
}

/// A section built only when Plot renders it, so a 1,000-store page never holds every
/// section's nodes at once.
struct Deferred: Component {
    let make: () -> Node<HTML.BodyContext>
    var body: Component { make() }
}
