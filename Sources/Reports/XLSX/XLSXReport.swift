import CXLSXWriter
import CivilCalendar
import KPI

/// A report as an XLSX workbook (SPEC sections 12 and 20), written by libxlsxwriter in
/// constant-memory mode with the report's own date as creation time, so the same report gives
/// the same bytes.
///
/// The review: `Summary` opens on its top scope's headline metrics and the stores ranked by
/// sales % to target (with a native bar chart), then lists every scope × metric for the quarter
/// (autofilter); then one sheet per scope in report order (the metrics over the three months and
/// the quarter, and a clustered-column chart of monthly sales: actual, target and LY). kpi: one
/// `KPI` sheet with every column of its CSV, projections included, and an autofilter. Every
/// sheet prints with its scope in the page header and the title, period, "data through" and
/// `page x of y` in the footer.
public enum XLSXReport {
    /// Writes `report` to `path`.
    public static func write(_ report: KPIReport, to path: String, options: DocumentOptions = DocumentOptions())
        throws
    {
        let (title, period) = heading(report)
        let workbook = try XLSXWorkbookWriter(path: path, title: title, created: date(of: report))
        let styles = try XLSXStyles(workbook, neutralBand: options.neutralBand)
        let print = PrintHeading(title: title, period: period, dataThrough: options.dataThrough)
        switch report.kind {
        case .review:
            try ReviewWorkbook(workbook: workbook, styles: styles, print: print, options: options).write(report)
        case .kpi:
            try writeKPISummary(report, workbook: workbook, styles: styles, print: print)
            try writeKPISheet(report, workbook: workbook, styles: styles, print: print)
        }
        try workbook.close()
    }

    /// The document's title and period in words.
    static func heading(_ report: KPIReport) -> (title: String, period: String) {
        switch report.kind {
        case .review(let quarter):
            let range = report.scopes.first?.periods.last?.range
            return (
                "Quarterly review \(quarter)",
                range.map { "\(quarter): \($0.start.iso8601) to \($0.end.iso8601)" } ?? quarter
            )
        case .kpi(let asOf): return ("KPIs as of \(asOf)", "to date, \(report.asOfHeading(asOf))")
        }
    }

    /// The report's own day (the quarter's last day, or kpi's as-of day): its documents'
    /// creation date, never the clock.
    public static func date(of report: KPIReport) -> CivilDate {
        switch report.kind {
        case .review: return report.scopes.first?.periods.last?.range.end ?? fallbackDate
        case .kpi(let asOf): return CivilDate(iso8601: asOf) ?? fallbackDate
        }
    }

    /// A report with no scopes has no dates; its workbook still needs a fixed one.
    private static let fallbackDate = CivilDate(year: 2000, month: 1, day: 1)

    /// The values after the metric or period columns: actual, target, % to target and its ▲/▼,
    /// LY, % vs LY and its ▲/▼.
    static let valueTitles = ["Actual", "Target", "% to target", "vs target", "LY", "% vs LY", "vs LY"]
    static let valueWidths: [Double] = [14, 14, 12, 11, 14, 10, 11]

    /// Writes `valueTitles`' seven cells from `column`.
    static func writeValues(
        _ value: MetricValue, _ format: MetricFormat, sheet: XLSXSheetWriter, row: Int, column: Int, styles: XLSXStyles
    ) throws {
        try writeActual(value, format, sheet: sheet, row: row, column: column, styles: styles)
        // The target as CSV and JSON print it (SPEC section 26): a prorated one has no binary noise.
        try sheet.write(
            value.target.map { NumberText.rounded($0, format) }, row: row, column: column + 1,
            format: styles.number(format))
        try sheet.write(value.pctToTarget, row: row, column: column + 2, format: styles.change(value.pctToTarget))
        try sheet.write(NumberText.change(value.pctToTarget), row: row, column: column + 3, format: styles.changeText)
        try sheet.write(value.ly, row: row, column: column + 4, format: styles.number(format))
        try sheet.write(value.pctVsLY, row: row, column: column + 5, format: styles.change(value.pctVsLY))
        try sheet.write(NumberText.change(value.pctVsLY), row: row, column: column + 6, format: styles.changeText)
    }

    /// A metric's actual as a number, or the text `no data` when its feed has none in the period.
    static func writeActual(
        _ value: MetricValue, _ format: MetricFormat, sheet: XLSXSheetWriter, row: Int, column: Int, styles: XLSXStyles
    ) throws {
        if value.hasNoData {
            try sheet.write(NumberText.noData, row: row, column: column)
        } else {
            try sheet.write(value.actual, row: row, column: column, format: styles.number(format))
        }
    }

    /// kpi's story: each scope's month-to-date sales against target and its pace, with the %
    /// to target as native horizontal bars.
    private static func writeKPISummary(
        _ report: KPIReport, workbook: XLSXWorkbookWriter, styles: XLSXStyles, print: PrintHeading
    ) throws {
        let sheet = try workbook.addSheet(named: "Summary")
        try sheet.setWidths([24, 14, 14, 12, 11, 12, 11])
        try sheet.setPrintHeading(print, scope: report.regularScopes.last?.title ?? "")
        try sheet.writeHeading(print, styles: styles)
        let titles = ["Scope", "MTD sales", "Target", "% to target", "vs target", "Pace", "pace ▲/▼"]
        try sheet.writeHeader(titles, row: 3, labelColumns: 1, styles: styles)
        var row = 3
        for scope in report.scopes {
            guard let sales = scope.periods.first(where: { $0.label == "MTD" })?.metrics.first else { continue }
            row += 1
            let pace = sales.projection?.pctToTarget
            try sheet.write(scope.title, row: row, column: 0)
            try writeActual(sales, .money, sheet: sheet, row: row, column: 1, styles: styles)
            try sheet.write(sales.target, row: row, column: 2, format: styles.number(.money))
            try sheet.write(sales.pctToTarget, row: row, column: 3, format: styles.change(sales.pctToTarget))
            try sheet.write(NumberText.change(sales.pctToTarget), row: row, column: 4, format: styles.changeText)
            try sheet.write(pace, row: row, column: 5, format: styles.change(pace))
            try sheet.write(NumberText.change(pace), row: row, column: 6, format: styles.changeText)
        }
        guard row > 3 else { return }
        let chart = try workbook.addBarChart(
            title: "Sales % to target by scope, MTD", series: "MTD sales % to target", sheet: sheet.name, rows: 4...row,
            labelColumn: 0, valueColumn: 3, numberFormat: XLSXStyles.signedPercent)
        try sheet.insert(chart, row: 3, column: 8, description: "Sales % to target by scope, month to date")
    }

    private static func writeKPISheet(
        _ report: KPIReport, workbook: XLSXWorkbookWriter, styles: XLSXStyles, print: PrintHeading
    ) throws {
        let sheet = try workbook.addSheet(named: "KPI")
        let titles =
            ["Scope", "Period", "Start", "End", "Metric"] + valueTitles + ["Projected", "Projected % to target"]
        try sheet.writeHeader(titles, labelColumns: 5, styles: styles)
        try sheet.setWidths([24, 8, 11, 11, 15] + valueWidths + [14, 12])
        try sheet.setPrintHeading(print, scope: report.regularScopes.last?.title ?? "")
        var row = 1
        for scope in report.scopes {
            for period in scope.periods {
                for (metric, value) in zip(report.metrics, period.metrics) {
                    try sheet.write(scope.title, row: row, column: 0)
                    try sheet.write(period.label, row: row, column: 1)
                    try sheet.write(period.range.start, row: row, column: 2, format: styles.date)
                    try sheet.write(period.range.end, row: row, column: 3, format: styles.date)
                    try sheet.write(metric.label, row: row, column: 4)
                    try writeValues(value, metric.format, sheet: sheet, row: row, column: 5, styles: styles)
                    let projection = 5 + valueTitles.count
                    try sheet.write(
                        value.projection?.value, row: row, column: projection, format: styles.number(metric.format))
                    try sheet.write(
                        value.projection?.pctToTarget, row: row, column: projection + 1,
                        format: styles.change(value.projection?.pctToTarget))
                    row += 1
                }
            }
        }
        try sheet.autofilter(fromRow: 0, rows: row, columns: titles.count)
    }
}

/// The review's sheets, in order.
private struct ReviewWorkbook {
    let workbook: XLSXWorkbookWriter
    let styles: XLSXStyles
    let print: PrintHeading
    let options: DocumentOptions

    func write(_ report: KPIReport) throws {
        try writeSummary(report)
        var names = SheetNames()
        _ = names.unique("Summary")
        for scope in report.scopes {
            try writeScope(scope, report.metrics, sheet: workbook.addSheet(named: names.unique(scope.title)))
        }
    }

    /// The headline metrics of the top scope (the company, the region, or the one store), the
    /// stores ranked by sales % to target with a bar chart, then every scope × metric for the quarter.
    private func writeSummary(_ report: KPIReport) throws {
        let sheet = try workbook.addSheet(named: "Summary")
        let top = report.topScope
        try sheet.setWidths([24, 15] + XLSXReport.valueWidths)
        try sheet.setPrintHeading(print, scope: top?.title ?? "Stores")
        try sheet.write(
            "\(print.title) — \(top?.title ?? "Stores")", row: 0, column: 0, format: styles.title)
        try sheet.write(print.periodLine, row: 1, column: 0)
        var row = 3
        // The column titles of every table below stay in view.
        sheet.freezeRows(row + 1)
        if let top, let quarter = top.periods.last {
            try sheet.writeTitles(["Headline", ""] + XLSXReport.valueTitles, row: row, labelColumns: 2, styles: styles)
            for (metric, value) in zip(report.metrics, quarter.metrics).prefix(KPIReport.headlineCount) {
                row += 1
                try sheet.write(metric.label, row: row, column: 0)
                try XLSXReport.writeValues(value, metric.format, sheet: sheet, row: row, column: 2, styles: styles)
                // Comp sales % vs LY beside the total's (SPEC section 21).
                if metric.key == "totalSales", let comp = report.topComparableScope?.periods.last,
                    let sales = comp.metrics.first
                {
                    row += 1
                    try sheet.write("Sales, comparable stores", row: row, column: 0)
                    try sheet.write(
                        "\(comp.comparableStores ?? 0) store\(comp.comparableStores == 1 ? "" : "s")", row: row,
                        column: 1)
                    try XLSXReport.writeValues(sales, metric.format, sheet: sheet, row: row, column: 2, styles: styles)
                }
            }
            row += 2
        }
        let stores = report.storesByPctToTarget
        if stores.count > 1 {
            try sheet.writeTitles(
                ["Stores by sales % to target", "Metric"] + XLSXReport.valueTitles, row: row, labelColumns: 2,
                styles: styles)
            let first = row + 1
            for store in stores {
                row += 1
                guard let sales = store.periods.last?.metrics.first else { continue }
                try sheet.write(KPIReport.rankingLabel(store), row: row, column: 0)
                try sheet.write("Sales", row: row, column: 1)
                try XLSXReport.writeValues(sales, .money, sheet: sheet, row: row, column: 2, styles: styles)
            }
            let chart = try workbook.addBarChart(
                title: "Stores by quarter sales % to target", series: "Sales % to target", sheet: sheet.name,
                rows: first...row, labelColumn: 0, valueColumn: 4, numberFormat: XLSXStyles.signedPercent)
            try sheet.insert(
                chart, row: 3, column: 10,
                description: "Stores ranked by quarter sales % to target")
            row += 2
        }
        let header = row
        try sheet.writeTitles(
            ["Scope", "Metric"] + XLSXReport.valueTitles, row: header, labelColumns: 2, styles: styles)
        try sheet.repeatOnEveryPage(row: header)
        for scope in report.scopes {
            guard let quarter = scope.periods.last else { continue }
            for (metric, value) in zip(report.metrics, quarter.metrics) {
                row += 1
                try sheet.write(scope.title, row: row, column: 0)
                try sheet.write(metric.label, row: row, column: 1)
                try XLSXReport.writeValues(value, metric.format, sheet: sheet, row: row, column: 2, styles: styles)
            }
        }
        try sheet.autofilter(fromRow: header, rows: row - header + 1, columns: 2 + XLSXReport.valueTitles.count)
    }

    /// Metric-major rows (each metric over the months, then the quarter), so the sales months
    /// the chart plots are rows 2 to 4.
    private func writeScope(_ scope: ScopeValues, _ metrics: [MetricDefinition], sheet: XLSXSheetWriter) throws {
        try sheet.writeHeader(["Metric", "Period"] + XLSXReport.valueTitles, labelColumns: 2, styles: styles)
        try sheet.setWidths([15, 9] + XLSXReport.valueWidths)
        try sheet.setPrintHeading(print, scope: scope.title)
        var row = 1
        for (index, metric) in metrics.enumerated() {
            for period in scope.periods {
                try sheet.write(metric.label, row: row, column: 0)
                try sheet.write(period.label, row: row, column: 1)
                try XLSXReport.writeValues(
                    period.metrics[index], metric.format, sheet: sheet, row: row, column: 2, styles: styles)
                row += 1
            }
        }
        let months = scope.periods.count - 1
        guard months > 0 else { return }
        try sheet.insert(
            try salesChart(sheet: sheet.name, months: months), row: 1, column: 10,
            description: "Monthly sales of \(scope.title): actual, target and LY")
    }

    /// Monthly sales, actual, target and LY, as clustered columns over the sheet's rows 2…
    private func salesChart(sheet: String, months: Int) throws -> UnsafeMutablePointer<lxw_chart> {
        let chart = try workbook.addChart(UInt8(LXW_CHART_COLUMN.rawValue))
        let series = [
            ("Actual", 2, ChartPalette.actual), ("Target", 3, ChartPalette.target),
            ("LY", 6, ChartPalette.lastYear),
        ]
        for (name, column, colour) in series {
            let series = chart_add_series(chart, nil, nil)
            chart_series_set_categories(series, sheet, 1, 1, lxw_row_t(months), 1)
            chart_series_set_values(series, sheet, 1, lxw_col_t(column), lxw_row_t(months), lxw_col_t(column))
            chart_series_set_name(series, name)
            XLSXWorkbookWriter.fill(series, colour: colour)
        }
        chart_title_set_name(chart, "Monthly sales: actual, target and LY")
        chart_axis_set_name(chart.pointee.x_axis, "Month")
        chart_axis_set_name(chart.pointee.y_axis, NumberText.moneyTitle("Sales"))
        chart_axis_set_num_format(chart.pointee.y_axis, XLSXStyles.moneyFormat(decimals: 0))
        // Columns start at zero, so their heights compare honestly.
        chart_axis_set_min(chart.pointee.y_axis, 0)
        chart_legend_set_position(chart, UInt8(LXW_CHART_LEGEND_BOTTOM.rawValue))
        return chart
    }
}

/// What every printed sheet says: its scope in the header; the title, period, "data through"
/// and `page x of y` in the footer (SPEC section 20).
struct PrintHeading {
    var title: String
    var period: String
    var dataThrough: CivilDate?

    var periodLine: String { dataThrough.map { "\(period) · data through \($0.iso8601)" } ?? period }
}
