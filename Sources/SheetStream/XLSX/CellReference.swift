/// A cell reference such as `AB12` (ECMA-376 Part 1, §18.18.7 ST_CellRef): column letters `A`…`XFD`
/// then a row number 1…1,048,576, the bounds of a worksheet (§18.3.1.73 `row`, attribute `r`).
enum CellReference {
    /// The largest row number a worksheet may have (1,048,576).
    static let maxRows = 1_048_576
    /// What a row or cell reference must be, for error messages.
    static let expectedRow = "expected a row number 1…1048576"
    static let expectedCell = "expected column letters A…XFD then a row number 1…1048576, like B12"

    /// The 0-based column and 1-based row of a reference; `nil` unless it is one to three
    /// letters (either case) naming a column up to `XFD`, then one to seven digits naming a row
    /// from 1 to 1,048,576, and nothing else.
    @inline(__always) static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (column: Int, row: Int)? {
        let count = bytes.count
        var index = 0
        var column = 0
        while index < count {
            let upper = bytes[index] & 0xDF
            guard upper >= UInt8(ascii: "A") && upper <= UInt8(ascii: "Z") else { break }
            // Wrapping arithmetic: at most three letters and seven digits cannot overflow.
            column = column &* 26 &+ Int(upper &- UInt8(ascii: "A") &+ 1)
            index += 1
            if index > 3 { return nil }
        }
        guard index > 0, column <= ColumnName.maxColumns, count - index >= 1, count - index <= 7 else {
            return nil
        }
        var row = 0
        while index < count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            row = row &* 10 &+ Int(digit)
            index += 1
        }
        guard row >= 1, row <= maxRows else { return nil }
        return (column - 1, row)
    }

    /// The row number of a row's `r` attribute: digits naming a row from 1 to 1,048,576.
    static func parseRow(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let row = ASCIIDigits.value(of: bytes, maxCount: 7) else { return nil }
        return row >= 1 && row <= maxRows ? row : nil
    }
}
