/// The page's inline style sheet: screen and print (landscape, one scope per page, table
/// headers repeated on each page, charts never cut).
enum HTMLStyle {
    static let css = """
        @page { size: A4 landscape; margin: 10mm; }
        * { box-sizing: border-box; }
        body { font: 13px/1.35 "DejaVu Sans", "Liberation Sans", Arial, sans-serif; color: #1b1f24; margin: 16px; \
        -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        h1 { font-size: 20px; margin: 0 0 8px; }
        h2 { font-size: 17px; margin: 0 0 8px; border-bottom: 2px solid #1b1f24; padding-bottom: 3px; }
        section.scope + section.scope { break-before: page; margin-top: 28px; }
        .row { display: flex; gap: 20px; align-items: flex-start; flex-wrap: wrap; }
        .chart, table, tr, svg { break-inside: avoid; }
        table { border-collapse: collapse; margin: 0 0 14px; }
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
        svg { font-family: inherit; display: block; }
        svg .chart-title { font-size: 14px; font-weight: bold; fill: #1b1f24; }
        svg .axis-title { font-size: 12px; fill: #3a4149; }
        svg .tick, svg .legend, svg .label, svg .note { font-size: 11px; fill: #3a4149; }
        svg .value { font-size: 11px; font-weight: bold; }
        svg .up-text { fill: #0b6b2e; } svg .down-text { fill: #a3121f; }
        svg .grid { stroke: #e1e5e9; } svg .zero { stroke: #5a626b; }
        svg .actual { fill: #2f6db5; } svg .target { fill: #b8c4d1; }
        svg .up { fill: #2e9e55; } svg .down { fill: #d2434f; }
        @media print { body { margin: 0; } .row { flex-wrap: nowrap; } }
        """
}
