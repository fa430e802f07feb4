import ArgumentParser
import Foundation
import OutputText
import Reports
import Warehouse

/// `ddkpi access grant|revoke|list` (SPEC section 23): PostgreSQL roles that read only their
/// stores, the server enforcing it with row-level security.
struct AccessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "access",
        abstract: "PostgreSQL roles that read only their stores (the server enforces it; SQLite: use packs).",
        subcommands: [Grant.self, Revoke.self, List.self])

    struct Grant: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Let ROLE read the stores of one scope (creating the role when it does not exist).")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The role: lower-case letters, digits and _.")
        var role: String

        @Option(parsing: .upToNextOption, help: "The stores the role reads, by code.")
        var store: [String] = []

        @Option(help: "The region whose stores the role reads (following the store directory).")
        var region: String?

        @Flag(help: "Every store: a role that reads everything and writes nothing.")
        var all = false

        @Flag(help: "Create the role able to sign in (needs --password-file).")
        var login = false

        @Option(help: "A file whose first line is the new role's password.")
        var passwordFile: String?

        func validate() throws {
            let scopes = [!store.isEmpty, region != nil, all].filter { $0 }.count
            guard scopes == 1 else { throw ValidationError("give one of --store CODE ..., --region NAME or --all") }
            guard login == (passwordFile != nil) else {
                throw ValidationError("--login and --password-file go together")
            }
        }

        func run() throws {
            let configuration = try global.configuration()
            let scope: AccessScope = all ? .all : region.map(AccessScope.region) ?? .stores(store)
            let password = try passwordFile.map(Self.password(in:))
            let warehouse = try global.openWarehouseForWriting(configuration)
            let lock = try warehouse.ingestLockOrExit(waiting: global.lockTimeout)
            defer { lock.release() }
            try Self.refused { try warehouse.grantAccess(role: role, scope: scope, password: password) }
            print("granted \(role): \(scope.description), read only")
        }

        /// The first line of `path`, which must not be empty.
        private static func password(in path: String) throws -> String {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ValidationError("--password-file \(path): cannot read it")
            }
            let line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard !line.isEmpty else { throw ValidationError("--password-file \(path): its first line is empty") }
            return line
        }

        /// Runs `body`, turning a warehouse's refusal into exit 2 with its message.
        static func refused<T>(_ body: () throws -> T) throws -> T {
            do {
                return try body()
            } catch let error as WarehouseError {
                throw ConfigurationError("\(error)")
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Take ROLE's rights on this warehouse (dropping the role if ddkpi created it and it holds nothing else)."
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The role.")
        var role: String

        func run() throws {
            let warehouse = try global.openWarehouseForWriting(try global.configuration())
            let lock = try warehouse.ingestLockOrExit(waiting: global.lockTimeout)
            defer { lock.release() }
            switch try Grant.refused({ try warehouse.revokeAccess(role: role) }) {
            case .dropped: print("revoked \(role); the role is dropped")
            case .kept: print("revoked \(role); the role is kept (ddkpi did not create it, or it holds other rights)")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The roles and the stores each reads.")

        @OptionGroup var global: GlobalOptions

        @Option(help: "Output format: table or json.")
        var format = FormatOption<TableOrJSON>.standard

        func run() throws {
            let warehouse = try global.openWarehouse(try global.configuration())
            let grants = try Grant.refused { try warehouse.accessGrants() }
            let output = TextOutput()
            if format.value == .json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                let listed = ["grants": grants.map(GrantJSON.init)]
                output.write(String(decoding: try encoder.encode(listed), as: UTF8.self) + "\n")
            } else {
                var table = TextTable(alignments: [.left, .left, .left], separator: "  ")
                table.add(["role", "reads", "granted"])
                for grant in grants { table.add([grant.role, grant.scope.description, grant.grantedAt]) }
                output.write(table.render())
            }
            output.flush()
        }

        /// A grant as `access list --format json` writes it.
        private struct GrantJSON: Encodable {
            let role: String
            /// `all`, `region` or `stores`.
            let scope: String
            let region: String?
            let stores: [String]
            let createdRole: Bool
            let grantedAt: String

            init(_ grant: AccessGrant) {
                role = grant.role
                createdRole = grant.createdRole
                grantedAt = grant.grantedAt
                scope = grant.scope.kind
                region = grant.scope.region
                stores = grant.scope.stores
            }
        }
    }
}
