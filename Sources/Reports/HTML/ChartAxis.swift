/// A value axis: grid lines at the scale's ticks with their labels, and a title, all in text.
struct ChartAxis {
    enum Side { case left, bottom }

    let scale: LinearScale
    let side: Side
    let title: String
    let label: (Double) -> String

    /// The axis inside a plot area: `across` is the plot's extent along the other direction.
    func svg(across: ClosedRange<Double>) -> [SVG.Content] {
        var nodes: [SVG.Content] = []
        for tick in scale.ticks {
            let at = scale(tick)
            switch side {
            case .left:
                nodes.append(
                    SVG.line(
                        x1: across.lowerBound, y1: at, x2: across.upperBound, y2: at,
                        className: tick == 0 ? "zero" : "grid"))
                nodes.append(
                    SVG.text(label(tick), x: across.lowerBound - 6, y: at + 4, anchor: "end", className: "tick"))
            case .bottom:
                nodes.append(
                    SVG.line(
                        x1: at, y1: across.lowerBound, x2: at, y2: across.upperBound,
                        className: tick == 0 ? "zero" : "grid"))
                nodes.append(
                    SVG.text(label(tick), x: at, y: across.upperBound + 14, anchor: "middle", className: "tick"))
            }
        }
        let middle = (scale.pixelsFrom + scale.pixelsTo) / 2
        switch side {
        case .left:
            nodes.append(SVG.text(title, x: 14, y: middle, anchor: "middle", className: "axis-title", rotate: true))
        case .bottom:
            nodes.append(
                SVG.text(title, x: middle, y: across.upperBound + 32, anchor: "middle", className: "axis-title"))
        }
        return nodes
    }
}
