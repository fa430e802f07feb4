import KPI
import Plot

/// A ranked report as one self-contained HTML page (SPEC section 12), in the review page's
/// style: a section per scope, each starting a printed page, its table with a caption, column
/// and row headers, and ▲/▼ text in every coloured change. Built with Plot, which escapes.
public enum RankingPage {
    public static func render(_ document: RankingDocument) -> String {
        let page = HTML(
            .lang(.english),
            .head(.meta(.charset(.utf8)), .element(named: "title", text: document.title), .style(HTMLStyle.css)),
            .body(
                .h1(.text(document.title)),
                .forEach(document.tables) { table in
                    .section(
                        .class("scope"), .h2(.text(table.title)),
                        table.rows.isEmpty ? .p(.text(table.emptyText)) : render(table))
                })
        )
        return page.render() + "\n"
    }

    private static func render(_ table: RankingTable) -> Node<HTML.BodyContext> {
        .table(
            .caption(.text(table.caption)),
            .thead(
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
                            cell(pair.0, pair.1, isRowHeader: index == table.rowHeaderColumn)
                        })
                })
        )
    }

    private static func isText(_ column: RankingTable.Column) -> Bool {
        if case .text = column.kind { return true }
        return false
    }

    private static func cell(_ cell: RankingTable.Cell, _ column: RankingTable.Column, isRowHeader: Bool) -> Node<
        HTML.TableRowContext
    > {
        let text: String
        var className = isText(column) ? "text" : "number"
        switch (cell, column.kind) {
        case (.text(let value), _): text = value
        case (.number(let value), .change):
            text = NumberText.change(value)
            className = text.hasPrefix("▲") ? "up-text" : text.hasPrefix("▼") ? "down-text" : "level"
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
