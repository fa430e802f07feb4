#if canImport(Glibc)
    import Glibc
#endif

/// Who starts a ledger run and where (SPEC section 23): the actor is the session's
/// (`SQLSession.actor`), the host this machine's name.
enum RunActor {
    /// The operating-system user this process runs as (SQLite's actor).
    static var operatingSystemUser: String {
        let uid = geteuid()
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return String(cString: name)
    }

    /// This machine's host name.
    static var host: String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
