// A PostgreSQL server of one test's own, which the test stops and starts again (the shared test
// server must stay up). Made the way Scripts/with-postgres.sh makes one.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A throwaway PostgreSQL 15 server: its data folder and Unix socket in a new folder under
/// `/tmp`, run as the `postgres` user (or `nobody`) when the tests run as root, trusting local
/// connections, no TCP listener, `fsync` off (a stopped server loses nothing the kernel holds)
/// but `synchronous_commit` on: a COMMIT returns once its WAL is written, so a server stopped
/// at once keeps every save it acknowledged (with it off, the last acknowledged saves are
/// lost by design, which the stop test would see).
final class PrivateServer {
    let folder: String
    let url: String
    private let bin = ProcessInfo.processInfo.environment["POSTGRES_BIN"] ?? "/usr/lib/postgresql/15/bin"
    private let owner: String?

    struct Failure: Error, CustomStringConvertible { var description: String }

    init() throws {
        folder = "/tmp/og-pg-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o755])
        if getuid() == 0 {
            let user = Self.exists("postgres") ? "postgres" : "nobody"
            owner = user
            try Self.run("/bin/chown", [user, folder])
        } else {
            owner = nil
        }
        url = "postgresql:///postgres?host=\(folder)&user=objectgraph"
        try command("initdb", ["-D", folder + "/data", "-A", "trust", "-U", "objectgraph", "--no-sync", "-E", "UTF8", "--locale=C"])
        try start()
    }

    /// Starts the server (waiting until it accepts connections).
    func start() throws {
        try command("pg_ctl", ["-D", folder + "/data", "-l", folder + "/server.log", "-w", "-t", "60", "-o",
                               "-k \(folder) -c listen_addresses= -c fsync=off -c full_page_writes=off",
                               "start"])
    }

    /// Stops the server: `immediate` ends every process at once (as a crash would), `fast`
    /// ends the sessions and shuts down cleanly.
    func stop(mode: String = "immediate") throws {
        try command("pg_ctl", ["-D", folder + "/data", "-m", mode, "-w", "stop"])
    }

    /// Stops the server and removes its folder.
    func remove() {
        try? stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func command(_ name: String, _ arguments: [String]) throws {
        if let owner {
            try Self.run("/usr/sbin/runuser", ["-u", owner, "--", bin + "/" + name] + arguments)
        } else {
            try Self.run(bin + "/" + name, arguments)
        }
    }

    private static func exists(_ user: String) -> Bool {
        (try? run("/usr/bin/id", [user])) != nil
    }

    /// Runs a program and waits for it (`posix_spawn` and `waitpid`, not `Process`: the
    /// server `pg_ctl start` leaves running inherits descriptors, and Foundation's `Process`
    /// on Linux may then never see the program end).
    @discardableResult
    private static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("og-pg-run-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "\(executable) cannot start (error \(spawned))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        // WIFEXITED && WEXITSTATUS == 0
        guard status & 0x7f == 0 && (status >> 8) & 0xff == 0 else {
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) failed (status \(status)): \(text)")
        }
        return text
    }
}
