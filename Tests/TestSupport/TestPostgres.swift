import Foundation
import XCTest

/// The PostgreSQL server the tests use: `DDKPI_TEST_POSTGRES_URL`, which `.ci/run` sets after
/// starting a throwaway cluster on loopback (SPEC section 14).
public enum TestPostgres {
    /// The server's URL; skips the test (saying so) when none is configured, except under CI,
    /// which must not skip PostgreSQL tests.
    public static func url() throws -> String {
        if let url = ProcessInfo.processInfo.environment["DDKPI_TEST_POSTGRES_URL"], !url.isEmpty { return url }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            XCTFail("CI must run the PostgreSQL tests, but DDKPI_TEST_POSTGRES_URL is not set (see .ci/postgres.sh)")
        }
        print(
            "note: PostgreSQL tests skipped: no server (set DDKPI_TEST_POSTGRES_URL, or run .ci/run, which starts one)")
        throw XCTSkip("no PostgreSQL server: DDKPI_TEST_POSTGRES_URL is not set")
    }
}
