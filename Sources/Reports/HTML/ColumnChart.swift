/// Clustered columns: for each category (a month), one bar per series (actual, target), with
/// a value axis, category labels, a title and a legend, all in text.
public struct ColumnChart {
    /// One series: its name in the legend, its CSS class (colour) and a value per category.
    public struct Series {
        public var name: String
        public var className: String
        public var values: [Double?]
        public init(name: String, className: String, values: [Double?]) {
            self.name = name
            self.className = className
            self.values = values
        }
    }

    /// A bar's rectangle in the picture.
    public struct Bar: Equatable {
        public var x, y, width, height: Double
        public var series: Int, category: Int
    }

    public var title: String
    public var categories: [String]
    public var series: [Series]
    public var categoryTitle: String
    public var valueTitle: String
    public var valueLabel: (Double) -> String
    public var width = 460.0, height = 250.0

    public init(
        title: String, categories: [String], series: [Series], categoryTitle: String, valueTitle: String,
        valueLabel: @escaping (Double) -> String
    ) {
        self.title = title
        self.categories = categories
        self.series = series
        self.categoryTitle = categoryTitle
        self.valueTitle = valueTitle
        self.valueLabel = valueLabel
    }

    /// The plot area: room on the left for the axis title and the widest tick label (so the
    /// title never sits on a label), below for categories and their title, above for the
    /// chart's title and the legend.
    var plot: (left: Double, right: Double, top: Double, bottom: Double) {
        let widest = rawScale.ticks.map { valueLabel($0).count }.max() ?? 0
        return (30 + DivergingBarChart.characterWidth * Double(widest), width - 12, 50, height - 44)
    }

    /// The scale's values (its pixels come with `scale`).
    private var rawScale: LinearScale {
        LinearScale(covering: series.flatMap { $0.values.compactMap { $0 } }, pixels: (0, 1))
    }

    var scale: LinearScale {
        LinearScale(covering: series.flatMap { $0.values.compactMap { $0 } }, pixels: (plot.bottom, plot.top))
    }

    /// Every bar with a value; a missing value (no target) has no bar.
    public var bars: [Bar] {
        let (scale, plot) = (self.scale, self.plot)
        let band = (plot.right - plot.left) / Double(max(1, categories.count))
        let barWidth = band * 0.7 / Double(max(1, series.count))
        var bars: [Bar] = []
        for (category, _) in categories.enumerated() {
            for (index, series) in series.enumerated() {
                guard category < series.values.count, let value = series.values[category] else { continue }
                let x = plot.left + band * (Double(category) + 0.15) + barWidth * Double(index)
                let top = min(scale(value), scale(0))
                bars.append(
                    Bar(
                        x: x, y: top, width: barWidth, height: abs(scale(value) - scale(0)), series: index,
                        category: category))
            }
        }
        return bars
    }

    func svg() -> SVG.Content {
        // `plot` formats every tick label: once, not per mark.
        let plot = self.plot
        let band = (plot.right - plot.left) / Double(max(1, categories.count))
        var nodes = [SVG.text(title, x: width / 2, y: 18, anchor: "middle", className: "chart-title")]
        nodes += legend
        nodes += ChartAxis(scale: scale, side: .left, title: valueTitle, label: valueLabel).svg(
            across: plot.left...plot.right)
        nodes += bars.map { bar in
            SVG.rect(x: bar.x, y: bar.y, width: bar.width, height: bar.height, className: series[bar.series].className)
        }
        for (index, category) in categories.enumerated() {
            nodes.append(
                SVG.text(
                    category, x: plot.left + band * (Double(index) + 0.5), y: plot.bottom + 16, anchor: "middle",
                    className: "tick"))
        }
        nodes.append(
            SVG.text(
                categoryTitle, x: (plot.left + plot.right) / 2, y: height - 8, anchor: "middle", className: "axis-title"
            ))
        return SVG.root(width: width, height: height, title: title, nodes)
    }

    /// A swatch and a name per series, in a row under the title.
    private var legend: [SVG.Content] {
        var x = plot.left
        return series.map { series -> [SVG.Content] in
            defer { x += 33 + DivergingBarChart.characterWidth * Double(series.name.count) }
            return [
                SVG.rect(x: x, y: 28, width: 12, height: 12, className: series.className),
                SVG.text(series.name, x: x + 17, y: 38.5, anchor: "start", className: "legend"),
            ]
        }.flatMap { $0 }
    }
}
