import Plot

/// SVG elements through Plot, which escapes their text; coordinates to one decimal so the
/// markup is stable.
enum SVG {
    typealias Content = Node<HTML.BodyContext>

    static func element(_ name: String, _ attributes: [(String, String)], _ children: [Content] = []) -> Content {
        .element(named: name, nodes: attributes.map { Content.attribute(named: $0.0, value: $0.1) } + children)
    }

    /// The root (inline in HTML, so without a namespace): a `role="img"` picture `width` × `height` pixels, described by `title` for screen readers.
    static func root(width: Double, height: Double, title: String, _ children: [Content]) -> Content {
        element(
            "svg",
            [
                ("viewBox", "0 0 \(number(width)) \(number(height))"),
                ("width", number(width)), ("height", number(height)), ("role", "img"),
            ], [element("title", [], [.text(title)])] + children)
    }

    static func rect(x: Double, y: Double, width: Double, height: Double, className: String) -> Content {
        element(
            "rect",
            [
                ("x", number(x)), ("y", number(y)), ("width", number(width)), ("height", number(height)),
                ("class", className),
            ])
    }

    static func line(x1: Double, y1: Double, x2: Double, y2: Double, className: String) -> Content {
        element(
            "line",
            [("x1", number(x1)), ("y1", number(y1)), ("x2", number(x2)), ("y2", number(y2)), ("class", className)])
    }

    /// Text at a point; `anchor` is `start`, `middle` or `end`.
    static func text(_ text: String, x: Double, y: Double, anchor: String, className: String, rotate: Bool = false)
        -> Content
    {
        var attributes = [("x", number(x)), ("y", number(y)), ("text-anchor", anchor), ("class", className)]
        if rotate { attributes.append(("transform", "rotate(-90 \(number(x)) \(number(y)))")) }
        return element("text", attributes, [.text(text)])
    }

    /// A coordinate to one decimal, without a trailing `.0`.
    static func number(_ value: Double) -> String {
        NumberText.plain((value * 10).rounded() / 10)
    }
}
