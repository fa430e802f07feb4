import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `ddkpi` as a user the file permissions apply to (SPEC section 5's analyst who
/// may read but not write): the current user when it is not root, or else `nobody` through
/// `runuser`, since root ignores file permissions.
public enum UnprivilegedUser {
    /// Runs `ddkpi` with `arguments` as that user; skips the test (saying so) when root has no
    /// `runuser` or no `nobody`, except under CI, which must run it.
    public static func ddkpi(_ arguments: [String]) throws -> CommandRunner.Result {
        guard getuid() == 0 else { return try CommandRunner.ddkpi(arguments) }
        let runuser = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let runuser, getpwnam("nobody") != nil else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                XCTFail("CI must run the read-only warehouse tests, but runuser or the user nobody is missing")
            }
            print("note: read-only warehouse test skipped: running as root without runuser or the user nobody")
            throw XCTSkip("no runuser or no user nobody to run ddkpi without root's rights")
        }
        return try CommandRunner.run(runuser, ["-u", "nobody", "--", CommandRunner.executable.path] + arguments)
    }
}
