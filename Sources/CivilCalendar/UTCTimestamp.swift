#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The current time as ISO 8601 in UTC with milliseconds, `2026-11-27T06:20:01.123Z` (the
/// ledger's and the event log's timestamps), read with `clock_gettime` and `gmtime_r`.
/// Foundation's `ISO8601DateFormatter` writes the same text, but its first use loads ICU's
/// calendar data, a cost every `ddkpi ingest` would pay at start.
public enum UTCTimestamp {
    /// Now.
    public static func now() -> String {
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        return text(seconds: Int(clock.tv_sec), milliseconds: Int(clock.tv_nsec) / 1_000_000)
    }

    /// The timestamp of `seconds` since 1970-01-01T00:00:00Z plus `milliseconds` (taken into
    /// 0…999); a time `gmtime_r` cannot break down (a year past 2^31) gives the epoch.
    public static func text(seconds: Int, milliseconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return "1970-01-01T00:00:00.000Z" }
        let milliseconds = Int32(min(max(milliseconds, 0), 999))
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(parts.tm_year + 1900, 4) + "-" + padded(parts.tm_mon + 1, 2) + "-" + padded(parts.tm_mday, 2)
            + "T" + padded(parts.tm_hour, 2) + ":" + padded(parts.tm_min, 2) + ":" + padded(parts.tm_sec, 2) + "."
            + padded(milliseconds, 3) + "Z"
    }
}
