import CivilCalendar
import Foundation

/// The stores a role may read on a shared PostgreSQL warehouse (SPEC section 23).
public enum AccessScope: Equatable, Sendable {
    /// Every store: an admin who only reads.
    case all
    /// The stores the directory puts in the region, as it changes.
    case region(String)
    /// These stores.
    case stores([String])

    /// How the warehouse and `access list --format json` name its kind: `all`, `region`, `stores`.
    public var kind: String {
        switch self {
        case .all: return "all"
        case .region: return "region"
        case .stores: return "stores"
        }
    }

    /// A region scope's region.
    public var region: String? {
        if case .region(let name) = self { return name }
        return nil
    }

    /// A stores scope's codes (none for the others).
    public var stores: [String] {
        if case .stores(let codes) = self { return codes }
        return []
    }

    /// How `access list` and the ledger say it: `all stores`, `region East`, `stores 08, 10`.
    public var description: String {
        switch self {
        case .all: return "all stores"
        case .region(let name): return "region \(name)"
        case .stores(let codes): return "stores " + codes.joined(separator: ", ")
        }
    }
}

/// A value computed once, on first use, by whichever thread asks first.
final class LazyValue<Value>: @unchecked Sendable {
    private enum State {
        case pending
        case computed(Value)
    }
    private let lock = NSLock()
    private var state = State.pending

    /// The value, computing it with `compute` the first time.
    func value(_ compute: () throws -> Value) throws -> Value {
        try lock.withLock {
            if case .computed(let value) = state { return value }
            let value = try compute()
            state = .computed(value)
            return value
        }
    }
}

/// A role `ddkpi access grant` gave a scope.
public struct AccessGrant: Equatable, Sendable {
    public var role: String
    public var scope: AccessScope
    /// Whether ddkpi created the role (and `revoke` may drop it).
    public var createdRole: Bool
    /// When it was granted (UTC).
    public var grantedAt: String
}

/// What `access revoke` did with the role itself.
public enum RevokedRole: Equatable, Sendable {
    /// ddkpi had created it and it held nothing else: dropped.
    case dropped
    /// Kept: ddkpi did not create it, or it holds rights elsewhere (roles are cluster-wide).
    case kept
}

extension Warehouse {
    /// The tables a scoped role reads, its rows cut by row-level security; rejects, alert state
    /// and the outbox are not among them.
    static let scopedReadableTables =
        ["ddkpi_migrations", "store_alias", "store_alias_history"]
        + HistoryTable.all.flatMap { [$0.name, $0.history] }
        + ["store_month_rollup", "ingest_run_store", "access_role", "access_store"]

    /// The ledger's columns a scoped role reads: not its whole-file totals, errors or rejects.
    static let scopedLedgerColumns =
        "id, path, size, sha256, feed, sheet, started_at, finished_at, status, history_pruned, undoes_run, actor, host"

    /// Gives `role` read access to the stores of `scope`, creating the role (with `password`, a
    /// login) when it does not exist; a run of the ledger.
    public func grantAccess(role: String, scope: AccessScope, password: String?) throws {
        try requireRoles()
        try Self.checkRoleName(role)
        try backend.write { session in
            let exists = try session.integer("SELECT 1 FROM pg_roles WHERE rolname = ?", [.text(role)]) != nil
            if try session.integer("SELECT 1 FROM pg_roles WHERE rolname = ? AND rolname = current_user", [.text(role)])
                != nil
            {
                throw WarehouseError(
                    message: "access grant \(role): that is the warehouse's owner, who sees every store")
            }
            var created = false
            if !exists {
                let statement =
                    password == nil
                    ? "SELECT format('CREATE ROLE %I', ?::text)"
                    : "SELECT format('CREATE ROLE %I LOGIN PASSWORD %L', ?::text, ?::text)"
                var sql = ""
                try session.scan(statement, [.text(role)] + (password.map { [.text($0)] } ?? [])) { sql = $0.text(0) }
                try session.execute(sql, [])
                created = true
            } else if let existing = try Self.grant(session, role: role) {
                created = existing.createdRole
            }
            try session.execute("DELETE FROM access_role WHERE role_name = ?", [.text(role)])
            try session.execute(
                "INSERT INTO access_role (role_name, scope, region, created_role, granted_at) VALUES (?, ?, ?, ?, ?)",
                [
                    .text(role), .text(scope.kind), scope.region.map(SQLValue.text) ?? .null, .integer(created ? 1 : 0),
                    .text(UTCTimestamp.now()),
                ])
            for code in Set(scope.stores).sorted() {
                try session.execute(
                    "INSERT INTO access_store (role_name, store_code) VALUES (?, ?)", [.text(role), .text(code)])
            }
            let quoted = try Self.quotedIdentifier(session, role)
            try Self.revokeTables(session, from: quoted)
            try session.execute("GRANT USAGE ON SCHEMA \(try Self.currentSchema(session)) TO \(quoted)", [])
            try session.execute(
                "GRANT SELECT ON " + Self.scopedReadableTables.joined(separator: ", ") + " TO \(quoted)", [])
            try session.execute("GRANT SELECT (\(Self.scopedLedgerColumns)) ON ingest_run TO \(quoted)", [])
            try Self.recordAccessRun(session, "grant \(role): \(scope.description)")
        }
    }

    /// Takes `role`'s rights on this warehouse and its scope, and drops the role when ddkpi
    /// created it and it holds nothing else; a run of the ledger.
    public func revokeAccess(role: String) throws -> RevokedRole {
        try requireRoles()
        try Self.checkRoleName(role)
        let created = try backend.write { session -> Bool in
            guard let grant = try Self.grant(session, role: role) else {
                throw WarehouseError(message: "access revoke \(role): no such grant (see ddkpi access list)")
            }
            let quoted = try Self.quotedIdentifier(session, role)
            try Self.revokeTables(session, from: quoted)
            try session.execute("REVOKE USAGE ON SCHEMA \(try Self.currentSchema(session)) FROM \(quoted)", [])
            try session.execute("DELETE FROM access_role WHERE role_name = ?", [.text(role)])
            try Self.recordAccessRun(session, "revoke \(role)")
            return grant.createdRole
        }
        guard created else { return .kept }
        do {
            try backend.write { session in
                try session.execute("DROP ROLE \(try Self.quotedIdentifier(session, role))", [])
            }
            return .dropped
        } catch {
            return .kept
        }
    }

    /// Every grant of this warehouse, by role name (a scoped role sees its own alone).
    public func accessGrants() throws -> [AccessGrant] {
        try requireRoles()
        return try backend.read { session in
            var roles: [String] = []
            try session.scan("SELECT role_name FROM access_role ORDER BY role_name", []) { roles.append($0.text(0)) }
            return try roles.compactMap { try Self.grant(session, role: $0) }
        }
    }

    /// The scope of the role this warehouse is read as; `nil` for the owner, any role without a
    /// grant, and SQLite.
    public func readerScope() throws -> AccessScope? { try scopedReader()?.scope }

    /// The role this warehouse is read as and its scope when `ddkpi access` scoped it, looked up
    /// once per opening (only the owner changes grants, and not through a scoped role's opening).
    private func scopedReader() throws -> (role: String, scope: AccessScope)? {
        guard case .postgres = location else { return nil }
        return try readerLookup.value {
            try backend.read { session in
                guard try session.integer("SELECT 1 WHERE to_regclass('access_role') IS NOT NULL", []) != nil else {
                    return nil
                }
                var role = ""
                try session.scan("SELECT session_user", []) { role = $0.text(0) }
                return try Self.grant(session, role: role).map { (role, $0.scope) }
            }
        }
    }

    /// Throws, naming the role, when the warehouse is read as a role `ddkpi access` scoped, which
    /// may not read `what` (SPEC section 23: alert state and the outbox).
    public func refuseScopedReader(_ what: String) throws {
        if let reader = try scopedReader() { throw WarehouseError(message: "role \(reader.role) may not read \(what)") }
    }

    /// Throws when the warehouse is opened to write as a role `ddkpi access` scoped (SPEC section 23).
    public func refuseScopedWriter() throws {
        if let reader = try scopedReader() { throw WarehouseError(message: "role \(reader.role) may only read") }
    }

    private func requireRoles() throws {
        guard case .postgres = location else {
            throw WarehouseError(
                message:
                    "access: a SQLite warehouse has no roles; a pack (ddkpi publish) is how a file is scoped (SPEC section 23)"
            )
        }
    }

    private static func grant(_ session: some SQLSession, role: String) throws -> AccessGrant? {
        var found: (kind: String, region: String?, created: Bool, at: String)?
        try session.scan(
            "SELECT scope, region, created_role, granted_at FROM access_role WHERE role_name = ?", [.text(role)]
        ) { row in found = (row.text(0), row.optionalText(1), row.text(2) == "t" || row.text(2) == "1", row.text(3)) }
        guard let found else { return nil }
        let scope: AccessScope
        switch found.kind {
        case "all": scope = .all
        case "region": scope = .region(found.region ?? "")
        default:
            var codes: [String] = []
            try session.scan(
                "SELECT store_code FROM access_store WHERE role_name = ? ORDER BY store_code", [.text(role)]
            ) { codes.append($0.text(0)) }
            scope = .stores(codes)
        }
        return AccessGrant(role: role, scope: scope, createdRole: found.created, grantedAt: found.at)
    }

    /// A role name PostgreSQL takes as it is written: letters, digits and `_`, at most 63 bytes,
    /// not a system role's `pg_` prefix.
    private static func checkRoleName(_ role: String) throws {
        let allowed = role.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "_")
        }
        guard !role.isEmpty, role.utf8.count <= 63, allowed, !role.hasPrefix("pg_"),
            let first = role.utf8.first, !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
        else {
            throw WarehouseError(
                message:
                    "access: role \"\(role)\": expected a lower-case name of letters, digits and _ (at most 63, not starting with pg_ or a digit)"
            )
        }
    }

    /// Takes every right on the warehouse's tables from the role `quoted` names.
    private static func revokeTables(_ session: some SQLSession, from quoted: String) throws {
        try session.execute(
            "REVOKE ALL ON " + (scopedReadableTables + ["ingest_run", "ingest_reject"]).joined(separator: ", ")
                + " FROM \(quoted)", [])
    }

    private static func quotedIdentifier(_ session: some SQLSession, _ name: String) throws -> String {
        var quoted = ""
        try session.scan("SELECT quote_ident(?::text)", [.text(name)]) { quoted = $0.text(0) }
        return quoted
    }

    private static func currentSchema(_ session: some SQLSession) throws -> String {
        var schema = ""
        try session.scan("SELECT quote_ident(current_schema())", []) { schema = $0.text(0) }
        return schema
    }

    /// Records an `access` run in the ledger: no file, its action as its sheet.
    private static func recordAccessRun(_ session: some SQLSession, _ action: String) throws {
        let now = UTCTimestamp.now()
        _ = try session.insertReturningID(
            """
            INSERT INTO ingest_run (path, size, sha256, feed, sheet, started_at, finished_at, status, actor, host)
            VALUES (NULL, 0, '', 'access', ?, ?, ?, 'ok', ?, ?)
            """,
            [.text(action), .text(now), .text(now), .text(try session.actor()), .text(RunActor.host)])
    }
}
