import KPI

/// The engine with the configured calendar, on the warehouse opened read-only.
struct ReportContext {
    let engine: KPIEngine

    init(global: GlobalOptions) throws {
        let configuration = try global.configuration()
        let calendar = FiscalCalendar(
            weekStart: configuration.feedOptions.weekStart, fiscalYearStartMonth: configuration.fiscalYearStartMonth)
        engine = KPIEngine(warehouse: try global.openWarehouse(configuration), calendar: calendar)
    }
}
