/// The page's inline style sheet: screen (down to a 390-pixel phone, where a chart keeps its
/// size and, like a wide table, scrolls sideways in its box under a `scroll sideways →` hint)
/// and print (A4 landscape, the review's scopes each from a new page but a one-store review on
/// one, other documents' short scopes several to a page and kept whole when they fit, table
/// headers repeated with the table's title, a table taller than a page split between rows but
/// never before its second row or its last, nor after its heading alone).
enum HTMLStyle {
    static let css = """
        @page { size: A4 landscape; margin: 10mm 10mm 14mm; }
        * { box-sizing: border-box; }
        body { font: 13px/1.35 "DejaVu Sans", "Liberation Sans", Arial, sans-serif; color: #1b1f24; margin: 16px; \
        -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        h1 { font-size: 20px; margin: 0 0 2px; }
        p.period { margin: 0 0 10px; color: #3a4149; }
        p.banner { margin: 0 0 10px; padding: 6px 10px; border: 2px solid #8a5a00; background: #fff3d6; \
        color: #5c3b00; font-weight: bold; }
        h2 { font-size: 17px; margin: 0 0 8px; border-bottom: 2px solid #1b1f24; padding-bottom: 3px; }
        h1, h2, h3, caption, p.period, p.headline, .chart-heading { break-after: avoid; }
        tbody tr:first-child { break-after: avoid; } tbody tr:last-child { break-before: avoid; }
        p.headline { font-size: 16px; font-weight: bold; margin: 0 0 4px; }
        p.misses { margin: 0 0 4px; } p.misses .up-text { color: #0b6b2e; } p.misses .down-text { color: #a3121f; }
        section.scope { margin-top: 24px; break-inside: avoid; }
        section.page-start { break-before: page; }
        section.scope:first-of-type { margin-top: 0; }
        .row { display: flex; gap: 20px; align-items: flex-start; flex-wrap: wrap; }
        .row > * { min-width: 0; max-width: 100%; }
        .chart, tr, svg, .card { break-inside: avoid; }
        .table-box { max-width: 100%; overflow-x: auto; margin: 0 0 14px; }
        table { border-collapse: collapse; }
        caption { text-align: left; font-weight: bold; padding: 2px 0 5px; }
        thead { display: table-header-group; }
        th, td { padding: 3px 8px; border-bottom: 1px solid #d5d9de; white-space: nowrap; }
        thead th { background: #eef1f4; text-align: right; }
        thead th[scope="colgroup"] { text-align: center; border-left: 1px solid #c2c8cf; }
        thead tr:first-child td { border: none; }
        th[scope="row"], thead th:first-child { text-align: left; }
        td { text-align: right; font-variant-numeric: tabular-nums; }
        thead th.text, td.text, th.text { text-align: left; } thead th.number { text-align: right; }
        td.up-text { color: #0b6b2e; background: #e3f3e7; }
        td.down-text { color: #a3121f; background: #fbe4e6; }
        .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 10px; \
        margin: 8px 0 14px; }
        .card { border: 1px solid #c2c8cf; border-radius: 4px; padding: 8px 10px; }
        .card h3 { font-size: 13px; margin: 0 0 2px; color: #3a4149; }
        .card .actual { font-size: 22px; font-weight: bold; margin: 0 0 4px; font-variant-numeric: tabular-nums; }
        .card dl { display: grid; grid-template-columns: auto 1fr; gap: 1px 10px; margin: 0; }
        .card dt { color: #3a4149; } .card dd { margin: 0; text-align: right; font-variant-numeric: tabular-nums; }
        .card .up-text { color: #0b6b2e; } .card .down-text { color: #a3121f; }
        svg { font-family: inherit; display: block; max-width: 100%; height: auto; }
        svg .chart-title { font-size: 14px; font-weight: bold; fill: #1b1f24; }
        svg .axis-title { font-size: 12px; fill: #3a4149; }
        svg .tick, svg .legend, svg .label, svg .note { font-size: 11px; fill: #3a4149; }
        svg .value { font-size: 11px; font-weight: bold; fill: #1b1f24; }
        svg .up-text { fill: #0b6b2e; } svg .down-text { fill: #a3121f; }
        svg .grid { stroke: #e1e5e9; } svg .zero { stroke: #5a626b; }
        svg .actual { fill: \(ChartPalette.css(ChartPalette.actual)); } \
        svg .target { fill: \(ChartPalette.css(ChartPalette.target)); }
        svg .ly { fill: #ffffff; stroke: \(ChartPalette.css(ChartPalette.lastYear)); stroke-width: 2; }
        svg .up { fill: \(ChartPalette.css(ChartPalette.up)); } svg .down { fill: \(ChartPalette.css(ChartPalette.down)); }
        svg .flat { fill: \(ChartPalette.css(ChartPalette.target)); }
        .scroll-hint, tr.printed-title { display: none; }
        @media (max-width: 600px) {
        .scroll-hint { display: block; margin: 0 0 2px; font-size: 12px; color: #3a4149; text-align: right; }
        .chart { overflow-x: auto; max-width: 100%; } .chart svg { max-width: none; }
        .table-box, .chart { box-shadow: inset -10px 0 8px -8px rgba(0, 0, 0, 0.35); }
        th[scope="row"] { position: sticky; left: 0; background: #ffffff; box-shadow: 2px 0 0 #c2c8cf; } }
        @media print { body { margin: 0; font-size: 11px; } .table-box { overflow: visible; } \
        th, td { padding: 1px 6px; } .card { padding: 4px 8px; } .card .actual { font-size: 18px; } \
        section.scope { margin-top: 12px; } section.one-store { zoom: 0.8; } \
        .cards { grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); } \
        caption { display: none; } tr.printed-title { display: table-row; } \
        thead tr.printed-title th { text-align: left; background: #ffffff; border: none; padding: 2px 0 4px; } }
        """
}
