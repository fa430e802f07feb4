#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CivilDate {
    /// Today in the local time zone (`TZ`, else `/etc/localtime`), read with `localtime_r` so
    /// that the calendar needs no Foundation.
    public static func today() -> CivilDate {
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil else { return CivilDate(year: 1970, month: 1, day: 1) }
        return CivilDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
    }
}
