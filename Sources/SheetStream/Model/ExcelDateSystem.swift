/// The epoch a workbook counts its date serial numbers from (ECMA-376 Part 1, §18.17.4.1).
public enum ExcelDateSystem: Sendable {
    /// Serial 1 is 1900-01-01, and serial 60 is the non-existent 1900-02-29 (Lotus 1-2-3's leap-year bug).
    case date1900
    /// Serial 0 is 1904-01-01 (`<workbookPr date1904="1"/>`).
    case date1904

    /// The largest serial Excel accepts: 9999-12-31 23:59:59 in the 1900 system.
    static let maximumSerial = 2_958_466.0

    /// Converts a serial number to a date-time, rounding to whole seconds; `nil` when outside
    /// the range Excel can show (negative, or past 9999-12-31 once rounded: Excel shows `#####`).
    ///
    /// In the 1900 system serials below 1 are times of day, serials 1..<60 count from
    /// 1899-12-31 and serial 60 (the fictitious 1900-02-29) shows as 1900-02-28, so that every
    /// later serial counts from 1899-12-30.
    public func dateTime(fromSerial serial: Double) -> CellDateTime? {
        guard serial.isFinite, serial >= 0, serial < Self.maximumSerial else { return nil }
        let totalSeconds = (serial * 86_400).rounded()
        var days = Int(totalSeconds / 86_400)
        let seconds = Int(totalSeconds - Double(days) * 86_400)
        let timeOnly = serial < 1 && days == 0
        switch self {
        case .date1900:
            if days >= 1 && days < 60 { days += 1 }
            days += Self.epoch1900
        case .date1904:
            days += Self.epoch1904
        }
        guard days <= Self.lastDay else { return nil }
        return CellDateTime(daysSinceEpoch: days, secondsOfDay: seconds, isTimeOnly: timeOnly)
    }

    /// The serial number of a date-time in this system (the inverse of `dateTime(fromSerial:)`).
    public func serial(of value: CellDateTime) -> Double {
        let fraction = Double(value.secondsOfDay) / 86_400
        if value.isTimeOnly { return fraction }
        switch self {
        case .date1900:
            var days = value.daysSinceEpoch - Self.epoch1900
            if days < 61 { days -= 1 }
            return Double(days) + fraction
        case .date1904:
            return Double(value.daysSinceEpoch - Self.epoch1904) + fraction
        }
    }

    /// 1899-12-30 in days since 1970-01-01.
    static let epoch1900 = -25_569
    /// 1904-01-01 in days since 1970-01-01.
    static let epoch1904 = -24_107
    /// 9999-12-31, the last day Excel shows, in days since 1970-01-01.
    static let lastDay = 2_932_896
}
