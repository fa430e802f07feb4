import Feeds
import GRDB
import Warehouse
import XCTest

@testable import PostgresClient

/// Which failures lie outside the file being ingested (SPEC section 5): those leave the file
/// where it is and stop the run.
final class OutsideFailureTests: XCTestCase {
    func testFailuresAreClassifiedByTheirCause() {
        XCTAssertEqual(OutsideFailure(classifying: PostgresError(message: "lost", sqlState: nil)), .server)
        XCTAssertEqual(OutsideFailure(classifying: PostgresError(message: "shutting down", sqlState: "57P01")), .server)
        XCTAssertEqual(OutsideFailure(classifying: PostgresError(message: "disk full", sqlState: "53100")), .server)
        XCTAssertEqual(OutsideFailure(classifying: PostgresError(message: "deadlock", sqlState: "40P01")), .environment)
        XCTAssertNil(OutsideFailure(classifying: PostgresError(message: "unknown store", sqlState: "23503")))
        XCTAssertEqual(OutsideFailure(classifying: DatabaseError(resultCode: .SQLITE_FULL)), .environment)
        XCTAssertEqual(OutsideFailure(classifying: DatabaseError(resultCode: .SQLITE_BUSY)), .environment)
        XCTAssertNil(OutsideFailure(classifying: DatabaseError(resultCode: .SQLITE_CONSTRAINT)))
        XCTAssertNil(OutsideFailure(classifying: FeedError(file: "a.csv", message: "cannot tell which feed this is")))
    }

    /// Issue 42, N2: a server that refuses writes (a hot standby's read-only transactions, 25006;
    /// a role without INSERT, 42501) is outside the file, as is any database error met before the
    /// file's first row was read that does not name the file.
    func testAServerThatRefusesWritesIsOutsideTheFile() {
        XCTAssertEqual(
            OutsideFailure(classifying: PostgresError(message: "read-only transaction", sqlState: "25006")), .server)
        XCTAssertEqual(
            OutsideFailure(classifying: PostgresError(message: "transaction aborted", sqlState: "25P02")), .server)
        XCTAssertEqual(
            OutsideFailure(classifying: PostgresError(message: "permission denied for table", sqlState: "42501")),
            .server)
        let missingTable = PostgresError(message: "relation \"ingest_run\" does not exist", sqlState: "42P01")
        XCTAssertNil(OutsideFailure(classifying: missingTable), "after a row was read, the file may be to blame")
        XCTAssertEqual(OutsideFailure(classifying: missingTable, beforeTheFirstRowOf: "/in/a.csv"), .server)
        XCTAssertNil(
            OutsideFailure(
                classifying: PostgresError(message: "invalid byte sequence in /in/a.csv", sqlState: "22021"),
                beforeTheFirstRowOf: "/in/a.csv"), "an error that names the file stays the file's")
        XCTAssertNil(
            OutsideFailure(
                classifying: PostgresError(message: "value in a.csv too long", sqlState: "22001"),
                beforeTheFirstRowOf: "/in/a.csv"))
        XCTAssertEqual(
            OutsideFailure(classifying: DatabaseError(resultCode: .SQLITE_ERROR), beforeTheFirstRowOf: "/in/a.csv"),
            .environment)
        XCTAssertNil(
            OutsideFailure(
                classifying: FeedError(file: "a.csv", message: "cannot tell which feed this is"),
                beforeTheFirstRowOf: "/in/a.csv"))
        XCTAssertNil(
            OutsideFailure(classifying: WarehouseError(message: "SHA-256: cannot start"), beforeTheFirstRowOf: "/a.csv")
        )
    }
}
