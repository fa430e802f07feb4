import Foundation
import PostgresClient
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL cluster of a test's own on loopback, for tests that stop the server under a
/// running command (the shared test server must stay up). Skips the test when no server is
/// installed, except under CI.
public final class ThrowawayPostgres {
    /// The URL of its database `ddkpi`.
    public let url: String
    private let folder: String
    private let bin: String
    private let port: Int

    public init() throws {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = versions.compactMap(Int.init).max(), getpwnam("postgres") != nil else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                XCTFail("CI must run this test, but no PostgreSQL server is installed")
            }
            throw XCTSkip("no PostgreSQL server installed to start a cluster of the test's own")
        }
        bin = "/usr/lib/postgresql/\(version)/bin"
        folder = try TestPaths.temporaryDirectory().path
        port = try Self.freePort()
        url = "postgresql://postgres@127.0.0.1:\(port)/ddkpi"
        try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: folder)
        try Self.check(
            CommandRunner.run(
                "runuser",
                [
                    "-u", "postgres", "--", bin + "/initdb", "-D", folder + "/data", "-U", "postgres", "-A", "trust",
                    "--no-sync",
                ]))
        try start()
        try Self.check(
            CommandRunner.run(
                "runuser",
                [
                    "-u", "postgres", "--", bin + "/createdb", "-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres",
                    "ddkpi",
                ]))
    }

    /// Starts the server (again), spawned without pipes: the server, a daemon, would keep a
    /// runner's pipe open (and its reader waiting) for as long as it runs.
    public func start() throws {
        let arguments = [
            "/usr/sbin/runuser", "-u", "postgres", "--", bin + "/pg_ctl", "-D", folder + "/data", "-l", folder + "/log",
            "-w", "-t",
            "60", "-o", "-c listen_addresses=127.0.0.1 -p \(port) -k \(folder) -c fsync=off", "start",
        ]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Every other descriptor of this process closes in the child (pipes of other runs included).
        for descriptor in 3..<256 where fcntl(Int32(descriptor), F_GETFD) != -1 {
            posix_spawn_file_actions_addclose(&actions, Int32(descriptor))
        }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0 else {
            throw XCTSkip("cannot run pg_ctl")
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        guard status == 0 else { throw XCTSkip("could not start a PostgreSQL cluster (see \(folder)/log)") }
    }

    /// Makes `role` sign in with a password (SCRAM) over loopback, every other role keeping
    /// trust, and waits until the server has reloaded its rules.
    public func requirePassword(of role: String) throws {
        let rules = folder + "/data/pg_hba.conf"
        let current = try String(contentsOfFile: rules, encoding: .utf8)
        try ("host all \(role) 127.0.0.1/32 scram-sha-256\n" + current).write(
            toFile: rules, atomically: false, encoding: .utf8)
        try Self.check(
            CommandRunner.run("runuser", ["-u", "postgres", "--", bin + "/pg_ctl", "-D", folder + "/data", "reload"]))
        let withoutPassword = url.replacingOccurrences(of: "postgres@", with: "\(role)@")
        for _ in 0..<100 {
            guard (try? PostgresConnection(url: withoutPassword)) != nil else { return }
            usleep(50_000)
        }
        throw XCTSkip("the server did not take the password rule for \(role)")
    }

    /// Stops the server at once, as a crash or an operator would (`pg_ctl stop -m immediate`).
    public func stopImmediately() throws {
        try Self.check(
            CommandRunner.run(
                "runuser",
                ["-u", "postgres", "--", bin + "/pg_ctl", "-D", folder + "/data", "-m", "immediate", "-w", "stop"]))
    }

    deinit {
        _ = try? CommandRunner.run(
            "runuser", ["-u", "postgres", "--", bin + "/pg_ctl", "-D", folder + "/data", "-m", "immediate", "stop"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    private static func check(_ result: CommandRunner.Result) throws {
        guard result.status == 0 else { throw XCTSkip("could not run a PostgreSQL cluster: \(result.stderr)") }
    }

    /// A TCP port on loopback that is free now.
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else { throw XCTSkip("no free port on loopback") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
