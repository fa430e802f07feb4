import CXLSXWriter
import CivilCalendar
import KPI

/// A report as an XLSX workbook (SPEC section 12), written by libxlsxwriter in constant-memory
/// mode with the report's own date as creation time, so the same report gives the same bytes.
///
/// The review: `Summary` (every scope × metric for the quarter, with an autofilter), then one
/// sheet per scope in report order (the metrics over the three months and the quarter, and a
/// clustered-column chart of monthly sales against target). kpi: one `KPI` sheet, one row per
/// scope × period × metric like its CSV, with an autofilter.
public enum XLSXReport {
    /// Writes `report` to `path`.
    public static func write(_ report: KPIReport, to path: String) throws {
        switch report.kind {
        case .review(let quarter):
            let workbook = try XLSXWorkbookWriter(
                path: path, title: "Quarterly review \(quarter)", created: reviewDate(report))
            try ReviewWorkbook(workbook: workbook, styles: XLSXStyles(workbook)).write(report)
            try workbook.close()
        case .kpi(let asOf):
            let workbook = try XLSXWorkbookWriter(
                path: path, title: "KPIs as of \(asOf)", created: CivilDate(iso8601: asOf) ?? fallbackDate)
            try writeKPISheet(report, workbook: workbook, styles: XLSXStyles(workbook))
            try workbook.close()
        }
    }

    /// A report with no scopes has no dates; its workbook still needs a fixed one.
    private static let fallbackDate = CivilDate(year: 2000, month: 1, day: 1)

    /// The quarter's last day.
    private static func reviewDate(_ report: KPIReport) -> CivilDate {
        report.scopes.first?.periods.last?.range.end ?? fallbackDate
    }

    /// The values after the metric or period columns: actual, target, % to target, its ▲/▼, LY, % vs LY.
    static let valueTitles = ["Actual", "Target", "% to target", "vs target", "LY", "% vs LY"]
    static let valueWidths: [Double] = [14, 14, 12, 11, 14, 10]

    /// Writes `valueTitles`' six cells from `column`.
    static func writeValues(
        _ value: MetricValue, _ format: MetricFormat, sheet: XLSXSheetWriter, row: Int, column: Int, styles: XLSXStyles
    ) throws {
        try sheet.write(value.actual, row: row, column: column, format: styles.number(format))
        try sheet.write(value.target, row: row, column: column + 1, format: styles.number(format))
        try sheet.write(value.pctToTarget, row: row, column: column + 2, format: styles.change(value.pctToTarget))
        try sheet.write(NumberText.change(value.pctToTarget), row: row, column: column + 3, format: styles.changeText)
        try sheet.write(value.ly, row: row, column: column + 4, format: styles.number(format))
        try sheet.write(value.pctVsLY, row: row, column: column + 5, format: styles.percent)
    }

    private static func writeKPISheet(_ report: KPIReport, workbook: XLSXWorkbookWriter, styles: XLSXStyles) throws {
        let sheet = try workbook.addSheet(named: "KPI")
        let titles = ["Scope", "Name", "Period", "Start", "End", "Metric"] + valueTitles
        try sheet.writeHeader(titles, labelColumns: titles.count - valueTitles.count, styles: styles)
        try sheet.setWidths([10, 28, 8, 11, 11, 15] + valueWidths)
        var row = 1
        for scope in report.scopes {
            for period in scope.periods {
                for (metric, value) in zip(MetricDefinition.all, period.metrics) {
                    let labels = [
                        scope.scope, scope.title, period.label, period.range.start.iso8601, period.range.end.iso8601,
                        metric.label,
                    ]
                    for (column, label) in labels.enumerated() { try sheet.write(label, row: row, column: column) }
                    try writeValues(value, metric.format, sheet: sheet, row: row, column: labels.count, styles: styles)
                    row += 1
                }
            }
        }
        try sheet.autofilter(rows: row, columns: titles.count)
    }
}

/// The review's sheets, in order.
private struct ReviewWorkbook {
    let workbook: XLSXWorkbookWriter
    let styles: XLSXStyles

    func write(_ report: KPIReport) throws {
        try writeSummary(report)
        var names = SheetNames()
        _ = names.unique("Summary")
        for scope in report.scopes {
            try writeScope(scope, sheet: workbook.addSheet(named: names.unique(scope.title)))
        }
    }

    /// Every scope × metric for the quarter.
    private func writeSummary(_ report: KPIReport) throws {
        let sheet = try workbook.addSheet(named: "Summary")
        let titles = ["Scope", "Name", "Metric"] + XLSXReport.valueTitles
        try sheet.writeHeader(titles, labelColumns: titles.count - XLSXReport.valueTitles.count, styles: styles)
        try sheet.setWidths([10, 28, 15] + XLSXReport.valueWidths)
        var row = 1
        for scope in report.scopes {
            guard let quarter = scope.periods.last else { continue }
            for (metric, value) in zip(MetricDefinition.all, quarter.metrics) {
                try sheet.write(scope.scope, row: row, column: 0)
                try sheet.write(scope.title, row: row, column: 1)
                try sheet.write(metric.label, row: row, column: 2)
                try XLSXReport.writeValues(value, metric.format, sheet: sheet, row: row, column: 3, styles: styles)
                row += 1
            }
        }
        try sheet.autofilter(rows: row, columns: titles.count)
    }

    /// Metric-major rows (each metric over the months, then the quarter), so the sales months
    /// the chart plots are rows 2 to 4.
    private func writeScope(_ scope: ScopeValues, sheet: XLSXSheetWriter) throws {
        try sheet.writeHeader(["Metric", "Period"] + XLSXReport.valueTitles, labelColumns: 2, styles: styles)
        try sheet.setWidths([15, 9] + XLSXReport.valueWidths)
        var row = 1
        for (index, metric) in MetricDefinition.all.enumerated() {
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
            try salesChart(sheet: sheet.name, months: months), row: 1, column: 9,
            description: "Monthly sales of \(scope.title): actual vs target")
    }

    /// Monthly sales, actual against target, as clustered columns over the sheet's rows 2…
    private func salesChart(sheet: String, months: Int) throws -> UnsafeMutablePointer<lxw_chart> {
        let chart = try workbook.addColumnChart()
        for (name, column) in [("Actual", 2), ("Target", 3)] {
            let series = chart_add_series(chart, nil, nil)
            chart_series_set_categories(series, sheet, 1, 1, lxw_row_t(months), 1)
            chart_series_set_values(series, sheet, 1, lxw_col_t(column), lxw_row_t(months), lxw_col_t(column))
            chart_series_set_name(series, name)
        }
        chart_title_set_name(chart, "Monthly sales: actual vs target")
        chart_axis_set_name(chart.pointee.x_axis, "Month")
        chart_axis_set_name(chart.pointee.y_axis, "Sales ($)")
        chart_axis_set_num_format(chart.pointee.y_axis, "$#,##0")
        // Columns start at zero, so their heights compare honestly.
        chart_axis_set_min(chart.pointee.y_axis, 0)
        chart_legend_set_position(chart, UInt8(LXW_CHART_LEGEND_BOTTOM.rawValue))
        return chart
    }
}
