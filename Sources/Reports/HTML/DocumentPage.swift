import Plot

/// The page around every HTML document (SPEC section 20): a viewport for phones, the title, the
/// period and "data through D" under it, the late-data banner when there is one, and the
/// printed footer on every page (`title · period · data through D`, `page x of y`).
struct DocumentPage {
    var title: String
    /// The period in words: `2025-04-01 to 2025-06-30`.
    var period: String
    var options: DocumentOptions

    /// The page with `content` under the heading.
    func render(_ content: Node<HTML.BodyContext>) -> String {
        let page = HTML(
            .lang(.english),
            .head(
                .meta(.charset(.utf8)),
                .meta(.name("viewport"), .content("width=device-width, initial-scale=1")),
                .element(named: "title", text: title),
                .style(HTMLStyle.css + "\n" + footerCSS)
            ),
            .body(
                .unwrap(options.banner) { .p(.class("banner"), .attribute(named: "role", value: "alert"), .text($0)) },
                .h1(.text(title)),
                .p(.class("period"), .text(periodLine)),
                content
            )
        )
        return page.render() + "\n"
    }

    /// `2025-04-01 to 2025-06-30 · data through 2025-06-15`.
    var periodLine: String {
        options.dataThrough.map { "\(period) · data through \($0.iso8601)" } ?? period
    }

    /// The printed footer, in the page's bottom margin boxes.
    var footerCSS: String {
        let font = "font: 9px \"DejaVu Sans\", sans-serif; color: #3a4149;"
        return "@page { @bottom-left { content: \(Self.cssString(title + " · " + periodLine)); \(font) } "
            + "@bottom-right { content: \"page \" counter(page) \" of \" counter(pages); \(font) } }"
    }

    /// `text` as a CSS string: quotes and backslashes escaped, `<` as `\3C ` (so no `</style>`
    /// can end the sheet), control characters as spaces.
    static func cssString(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "<": quoted += "\\3C "
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: quoted += " "
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}

extension Node where Context == HTML.BodyContext {
    /// A table in a box that scrolls sideways on a narrow screen instead of spilling off it, with
    /// a hint above it there.
    static func tableBox(_ table: Node<HTML.BodyContext>) -> Node<HTML.BodyContext> {
        .div(
            .p(.class("scroll-hint"), .attribute(named: "aria-hidden", value: "true"), .text("scroll sideways →")),
            .div(.class("table-box"), table))
    }
}

extension Node where Context == HTML.TableContext {
    /// A header row naming the table (its caption's text) across `columns`, shown only in print,
    /// where the header repeats on every page a split table takes, so each page names its scope.
    static func printedTitle(_ title: String, columns: Int) -> Node<HTML.TableContext> {
        .tr(
            .class("printed-title"),
            .element(
                named: "th",
                nodes: [
                    .attribute(named: "scope", value: "colgroup"), .attribute(named: "colspan", value: String(columns)),
                    .text(title),
                ]))
    }
}
