import CivilCalendar

/// One associate's sales at one store over a day or a month.
public struct EmployeeSalesRecord: Equatable, Sendable {
    /// The id as trimmed text (`0042` and `42` differ).
    public var employeeId: String
    public var store: String
    public var grain: ReportGrain
    public var figures: SalesFigures

    public init(employeeId: String, store: String, grain: ReportGrain, figures: SalesFigures) {
        self.employeeId = employeeId
        self.store = store
        self.grain = grain
        self.figures = figures
    }
}

/// An associate's name as of a day: the name on the associate's latest row.
public struct EmployeeNameRecord: Equatable, Sendable {
    public var employeeId: String
    public var name: String
    /// The last day of the row the name was read from.
    public var asOf: CivilDate

    public init(employeeId: String, name: String, asOf: CivilDate) {
        self.employeeId = employeeId
        self.name = name
        self.asOf = asOf
    }
}
