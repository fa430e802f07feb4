import KPI
import Plot

/// A ranked report as one self-contained HTML page (SPEC sections 12 and 20), in the review
/// page's style: a section per scope, several to a printed page, each with its chart (the top
/// rows as bars, vs LY beside each) and its table (caption, column and row headers, ▲/▼ text in
/// every change). Built with Plot, which escapes.
public enum RankingPage {
    public static func render(_ document: RankingDocument, options: DocumentOptions = DocumentOptions()) -> String {
        DocumentPage(title: document.title, period: document.period, options: options).render(
            .forEach(document.tables) { table in
                .section(
                    .class("scope"), .h2(.text(table.title)),
                    .unwrap(table.chart) { .div(.class("chart"), chart($0, options: options).svg()) },
                    table.rows.isEmpty ? .p(.text(table.emptyText)) : .tableBox(render(table, options: options)))
            })
    }

    private static func chart(_ chart: RankingChart, options: DocumentOptions) -> DivergingBarChart {
        var bars = DivergingBarChart(
            title: chart.title, valueTitle: chart.valueTitle, rows: chart.rows,
            style: .amount(label: { NumberText.formatted($0, chart.format) }))
        bars.neutralBand = options.neutralBand
        bars.missingText = "—"
        return bars
    }

    private static func render(_ table: RankingTable, options: DocumentOptions) -> Node<HTML.BodyContext> {
        .table(
            .caption(.text(table.caption)),
            .thead(
                .printedTitle(table.caption, columns: table.columns.count),
                .tr(
                    .forEach(table.columns) { column in
                        .element(
                            named: "th",
                            nodes: [
                                .attribute(named: "scope", value: "col"), .class(isText(column) ? "text" : "number"),
                                .text(column.title),
                            ])
                    })),
            .tbody(
                .forEach(table.rows) { cells in
                    .tr(
                        .forEach(Array(zip(cells, table.columns).enumerated())) { index, pair in
                            cell(pair.0, pair.1, isRowHeader: index == table.rowHeaderColumn, options: options)
                        })
                })
        )
    }

    private static func isText(_ column: RankingTable.Column) -> Bool {
        if case .text = column.kind { return true }
        return false
    }

    private static func cell(
        _ cell: RankingTable.Cell, _ column: RankingTable.Column, isRowHeader: Bool, options: DocumentOptions
    ) -> Node<HTML.TableRowContext> {
        let text: String
        var className = isText(column) ? "text" : "number"
        switch (cell, column.kind) {
        case (.text(let value), _): text = value
        case (.number(let value), .change):
            text = NumberText.change(value)
            className = ChangeTone(value, band: options.neutralBand).className
        case (.number(let value), .number(let format)): text = NumberText.formatted(value, format)
        case (.number(let value), .text): text = value.map { NumberText.formatted($0, .count) } ?? ""
        }
        if isRowHeader {
            return .element(
                named: "th", nodes: [.attribute(named: "scope", value: "row"), .class(className), .text(text)])
        }
        return .td(.class(className), .text(text))
    }
}
