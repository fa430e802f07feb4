extension CellDateTime {
    /// Parses ISO 8601 text as `t="d"` cells hold it: `2025-07-15`, `2025-07-15T13:45:07`
    /// (fractional seconds rounded, a trailing `Z` or offset ignored) or a time `13:45:07`.
    public init?(iso8601 text: String) {
        var scanner = DigitScanner(text)
        if let time = scanner.time(), scanner.atEnd {
            self.init(daysSinceEpoch: 0, secondsOfDay: time, isTimeOnly: true)
            return
        }
        scanner = DigitScanner(text)
        guard let year = scanner.number(digits: 4...4), scanner.skip("-"), let month = scanner.number(digits: 1...2),
            scanner.skip("-"), let day = scanner.number(digits: 1...2),
            let date = CellDateTime(year: year, month: month, day: day)
        else { return nil }
        self = date
        if scanner.skip("T") || scanner.skip(" ") {
            guard let time = scanner.time() else { return nil }
            secondsOfDay = time
            if secondsOfDay == 86_400 {
                // Rounded up past 9999-12-31: a day no spreadsheet shows.
                guard daysSinceEpoch < ExcelDateSystem.lastDay else { return nil }
                secondsOfDay = 0
                daysSinceEpoch += 1
            }
            _ = scanner.skipTimeZone()
        }
        guard scanner.atEnd else { return nil }
    }
}

/// A tiny cursor over ASCII text for date and time parsing.
struct DigitScanner {
    private let bytes: [UInt8]
    private var position = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var atEnd: Bool { position == bytes.count }

    mutating func skip(_ literal: Character) -> Bool {
        guard position < bytes.count, let ascii = literal.asciiValue, bytes[position] == ascii else { return false }
        position += 1
        return true
    }

    /// A run of decimal digits whose length is in `digits`.
    mutating func number(digits: ClosedRange<Int>) -> Int? {
        var value = 0
        var count = 0
        while position < bytes.count, bytes[position] >= 48, bytes[position] <= 57, count < digits.upperBound {
            value = value * 10 + Int(bytes[position] - 48)
            position += 1
            count += 1
        }
        return digits.contains(count) ? value : nil
    }

    /// `HH:MM[:SS[.fff]]` as seconds of the day, rounded to whole seconds.
    mutating func time() -> Int? {
        guard let hour = number(digits: 1...2), hour < 24, skip(":"), let minute = number(digits: 2...2), minute < 60
        else { return nil }
        var seconds = hour * 3600 + minute * 60
        if skip(":") {
            guard let second = number(digits: 2...2), second < 60 else { return nil }
            seconds += second
            if skip(".") || skip(",") {
                let start = position
                guard let fraction = number(digits: 1...9) else { return nil }
                let firstDigit = bytes[start] - 48
                if firstDigit >= 5 { seconds += 1 }
                _ = fraction
            }
        }
        return seconds
    }

    /// A trailing `Z` or `±HH:MM` offset, which spreadsheets' local times ignore.
    mutating func skipTimeZone() -> Bool {
        if skip("Z") { return true }
        guard skip("+") || skip("-") else { return false }
        _ = number(digits: 2...2)
        _ = skip(":")
        _ = number(digits: 2...2)
        return true
    }
}
