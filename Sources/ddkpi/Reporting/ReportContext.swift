import CivilCalendar
import KPI
import Reports

/// The engine with the configured calendar, on the warehouse opened read-only.
struct ReportContext {
    let engine: KPIEngine
    /// `[documents] neutral_band`.
    let neutralBand: Double

    init(global: GlobalOptions) throws {
        let configuration = try global.configuration()
        engine = KPIEngine(
            warehouse: try global.openWarehouse(configuration), calendar: configuration.calendar,
            comparableStores: configuration.comparableStores, enabledFeeds: configuration.enabledFeeds)
        neutralBand = configuration.neutralBand
        NumberStyle.use(configuration.numberStyle)
        if let unused = try engine.goalsOfTheOtherCalendar() { Diagnostics.warning(unused) }
    }

    /// The documents' options for a report over `filter` ending on `end` (`nil`: its latest data):
    /// the neutral band and the day its stores' data runs through (looked up only when `output`
    /// writes a document).
    func documentOptions<Choices>(_ filter: ScopeFilter, through end: CivilDate?, for output: OutputOptions<Choices>)
        throws -> DocumentOptions
    {
        guard output.writesDocument else { return DocumentOptions(neutralBand: neutralBand) }
        return DocumentOptions(neutralBand: neutralBand, dataThrough: try engine.dataThrough(filter, notAfter: end))
    }
}
