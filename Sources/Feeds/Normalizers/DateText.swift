import CivilCalendar
import SheetStream

/// Parses dates written as text: `YYYY-MM-DD`, `M/D/YYYY`, `M/D/YY`, `D-Mon-YYYY`, `Mon D, YYYY`
/// (month names or abbreviations), each optionally followed by a time (`13:45`, `13:45:07`,
/// `1:43 PM`, or ISO `T13:45:07`). Day-first (`D/M/YYYY`) only when configured. Two-digit years
/// below 70 are 20YY, others 19YY.
public struct DateText: Sendable {
    public var dayFirst: Bool

    public init(dayFirst: Bool = false) { self.dayFirst = dayFirst }

    private enum Token: Equatable {
        case number(Int, digits: Int)
        case word(String)
        case symbol(Character)
    }

    private static let months: [String: Int] = {
        let names = [
            "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
            "november", "december",
        ]
        var table: [String: Int] = [:]
        for (index, name) in names.enumerated() {
            table[name] = index + 1
            table[String(name.prefix(3))] = index + 1
        }
        table["sept"] = 9
        return table
    }()

    /// The date and time of `text`, or `nil` when it is none of the accepted forms.
    public func parse(_ text: String) -> CellDateTime? {
        let tokens = Self.tokenize(text)
        guard let (year, month, day, used) = datePart(tokens) else { return nil }
        let year4 = year < 100 ? (year < 70 ? 2000 + year : 1900 + year) : year
        guard var value = CellDateTime(year: year4, month: month, day: day) else { return nil }
        var rest = Array(tokens[used...])
        if rest.first == .word("t") { rest.removeFirst() }
        if rest.isEmpty { return value }
        guard let seconds = Self.timePart(rest) else { return nil }
        value.secondsOfDay = seconds
        return value
    }

    /// The first day of the month `text` names: `YYYY-MM`, `M/YYYY`, `Mon YYYY`, `Month YYYY`,
    /// `Mon-YYYY`; `nil` for anything else.
    public func parseMonth(_ text: String) -> CivilDate? {
        let tokens = Self.tokenize(text)
        let numbers = tokens.compactMap { token -> (value: Int, digits: Int)? in
            if case .number(let value, let digits) = token { return (value, digits) }
            return nil
        }
        let words = tokens.compactMap { token -> String? in
            if case .word(let word) = token { return word }
            return nil
        }
        let symbols = tokens.compactMap { token -> Character? in
            if case .symbol(let symbol) = token { return symbol }
            return nil
        }
        guard symbols.count <= 1, symbols.allSatisfy({ "-/,".contains($0) }) else { return nil }
        let year: Int
        let month: Int
        switch (numbers.count, words.count) {
        case (2, 0):
            // YYYY-MM or M/YYYY.
            if numbers[0].digits == 4, numbers[1].digits <= 2, case .number = tokens[0] {
                (year, month) = (numbers[0].value, numbers[1].value)
            } else if numbers[1].digits == 4, numbers[0].digits <= 2 {
                (year, month) = (numbers[1].value, numbers[0].value)
            } else {
                return nil
            }
        case (1, 1):
            guard numbers[0].digits == 4, let named = Self.months[words[0]], case .word = tokens[0] else { return nil }
            (year, month) = (numbers[0].value, named)
        default:
            return nil
        }
        guard (1...12).contains(month) else { return nil }
        return CivilDate(year: year, month: month, day: 1)
    }

    private func datePart(_ tokens: [Token]) -> (Int, Int, Int, Int)? {
        func number(_ index: Int, digits: ClosedRange<Int>) -> Int? {
            guard index < tokens.count, case .number(let value, let count) = tokens[index], digits.contains(count)
            else { return nil }
            return value
        }
        func symbol(_ index: Int, _ allowed: Set<Character>) -> Character? {
            guard index < tokens.count, case .symbol(let character) = tokens[index], allowed.contains(character) else {
                return nil
            }
            return character
        }
        func month(_ index: Int) -> Int? {
            guard index < tokens.count, case .word(let word) = tokens[index] else { return nil }
            return Self.months[word]
        }
        // YYYY-MM-DD or YYYY/MM/DD
        if let year = number(0, digits: 4...4), let separator = symbol(1, ["-", "/"]),
            let month = number(2, digits: 1...2),
            symbol(3, [separator]) != nil, let day = number(4, digits: 1...2)
        {
            return (year, month, day, 5)
        }
        // M/D/YYYY, M/D/YY (D/M/… when day-first)
        if let first = number(0, digits: 1...2), let separator = symbol(1, ["/", "-"]),
            let second = number(2, digits: 1...2),
            symbol(3, [separator]) != nil, let year = number(4, digits: 2...4), year >= 0
        {
            return dayFirst ? (year, second, first, 5) : (year, first, second, 5)
        }
        // D-Mon-YYYY or D Mon YYYY
        if let day = number(0, digits: 1...2) {
            var index = 1
            if symbol(index, ["-", "/"]) != nil { index += 1 }
            if let month = month(index) {
                index += 1
                if symbol(index, ["-", "/"]) != nil { index += 1 }
                if let year = number(index, digits: 2...4) { return (year, month, day, index + 1) }
            }
        }
        // Mon D, YYYY
        if let month = month(0), let day = number(1, digits: 1...2) {
            var index = 2
            if symbol(index, [","]) != nil { index += 1 }
            if let year = number(index, digits: 4...4) { return (year, month, day, index + 1) }
        }
        return nil
    }

    /// `H:MM[:SS[.fff]] [AM|PM]` as seconds of the day.
    private static func timePart(_ tokens: [Token]) -> Int? {
        guard tokens.count >= 3, case .number(var hour, _) = tokens[0], tokens[1] == .symbol(":"),
            case .number(let minute, 2) = tokens[2], minute < 60
        else { return nil }
        var index = 3
        var second = 0
        if index + 1 < tokens.count, tokens[index] == .symbol(":"), case .number(let value, 2) = tokens[index + 1],
            value < 60
        {
            second = value
            index += 2
            if index + 1 < tokens.count, tokens[index] == .symbol("."), case .number = tokens[index + 1] { index += 2 }
        }
        if index < tokens.count, case .word(let marker) = tokens[index], marker == "am" || marker == "pm" {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (marker == "pm" ? 12 : 0)
            index += 1
        }
        if index < tokens.count, tokens[index] == .word("z") { index += 1 }
        guard index == tokens.count, hour < 24 else { return nil }
        return hour * 3600 + minute * 60 + second
    }

    private static func tokenize(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var digits = ""
        var letters = ""
        func flush() {
            if !digits.isEmpty, let value = Int(digits) { tokens.append(.number(value, digits: digits.count)) }
            if !letters.isEmpty { tokens.append(.word(letters.lowercased())) }
            digits = ""
            letters = ""
        }
        for character in text {
            if character.isASCII && character.isNumber {
                if !letters.isEmpty { flush() }
                digits.append(character)
            } else if character.isLetter {
                if !digits.isEmpty { flush() }
                letters.append(character)
            } else {
                flush()
                if !character.isWhitespace { tokens.append(.symbol(character)) }
            }
        }
        flush()
        return tokens
    }
}
