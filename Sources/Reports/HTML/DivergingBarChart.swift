/// Horizontal bars around a zero line: negative values to the left, positive to the right,
/// each labelled with its ▲/▼ change text beside the bar (never colour alone).
public struct DivergingBarChart {
    /// A bar's rectangle and where its label goes.
    public struct Bar: Equatable {
        public var x, y, width, height: Double
        public var isNegative: Bool
    }

    public var title: String
    public var valueTitle: String
    /// One row per item: its label and value (`nil`: no bar, `no target` instead).
    public var rows: [(label: String, value: Double?)]
    public var width = 720.0
    public var rowHeight = 20.0

    public init(title: String, valueTitle: String, rows: [(label: String, value: Double?)]) {
        self.title = title
        self.valueTitle = valueTitle
        self.rows = rows
    }

    var plot: (left: Double, right: Double, top: Double) { (170, width - 90, 34) }
    var height: Double { plot.top + rowHeight * Double(max(1, rows.count)) + 44 }

    var scale: LinearScale {
        LinearScale(covering: rows.compactMap(\.value), ticks: 6, pixels: (plot.left, plot.right))
    }

    /// The bar of each row, `nil` for a row without a value.
    public var bars: [Bar?] {
        let scale = self.scale
        return rows.enumerated().map { index, row in
            guard let value = row.value else { return nil }
            let y = plot.top + rowHeight * Double(index) + 3
            return Bar(
                x: min(scale(value), scale(0)), y: y, width: abs(scale(value) - scale(0)), height: rowHeight - 6,
                isNegative: value < 0)
        }
    }

    func svg() -> SVG.Content {
        let scale = self.scale
        let bottom = plot.top + rowHeight * Double(max(1, rows.count))
        var nodes = [SVG.text(title, x: width / 2, y: 18, anchor: "middle", className: "chart-title")]
        nodes += ChartAxis(
            scale: scale, side: .bottom, title: valueTitle, label: { NumberText.formatted($0, .percent) }
        )
        .svg(across: plot.top...bottom)
        for ((row, bar), index) in zip(zip(rows, bars), rows.indices) {
            let middle = plot.top + rowHeight * (Double(index) + 0.5) + 4
            nodes.append(SVG.text(row.label, x: plot.left - 8, y: middle, anchor: "end", className: "label"))
            guard let bar else {
                nodes.append(SVG.text("no target", x: scale(0) + 4, y: middle, anchor: "start", className: "note"))
                continue
            }
            nodes.append(
                SVG.rect(
                    x: bar.x, y: bar.y, width: bar.width, height: bar.height, className: bar.isNegative ? "down" : "up")
            )
            let text = NumberText.change(row.value)
            nodes.append(
                bar.isNegative
                    ? SVG.text(text, x: bar.x - 4, y: middle, anchor: "end", className: "value down-text")
                    : SVG.text(text, x: bar.x + bar.width + 4, y: middle, anchor: "start", className: "value up-text"))
        }
        return SVG.root(width: width, height: height, title: title, nodes)
    }
}
