// The PostgreSQL server of the tests (PostgreSQLStoreTests, and the context matrix).
import Foundation
import Synchronization

/// The PostgreSQL server the tests use: the one `OBJECTGRAPH_POSTGRES_URL` names (CI sets it
/// through `Scripts/with-postgres.sh swift test`), or one this test process starts with
/// `Scripts/with-postgres.sh --serve`, stopped when the process ends (the script waits for its
/// standard input, our pipe, to close).
package enum PostgreSQLTestServer {
    /// The server's URL, or an error saying how to get one.
    package static func url() throws -> String { try resolved.get() }

    /// The URL, found or started once for the process (a static's one-time initialisation,
    /// which the thread sanitizer sees, unlike a `Mutex`).
    private static let resolved: Result<String, NoServer> = {
        if let url = ProcessInfo.processInfo.environment["OBJECTGRAPH_POSTGRES_URL"], !url.isEmpty {
            return .success(url)
        }
        do { return .success(try start()) } catch let error as NoServer { return .failure(error) } catch {
            return .failure(NoServer(description: "no PostgreSQL server: \(error)"))
        }
    }()

    package struct NoServer: Error, CustomStringConvertible {
        package var description: String
    }


    /// Runs `Scripts/with-postgres.sh --serve`; the server lives until this process exits (its
    /// standard input, our pipe, closes then).
    private static func start() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("Scripts/with-postgres.sh")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path, "--serve"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw NoServer(description: "no PostgreSQL server: set OBJECTGRAPH_POSTGRES_URL, or run the tests as `Scripts/with-postgres.sh swift test` (starting \(script.path) failed: \(error))")
        }
        let line = output.fileHandleForReading.readLine()
        guard let line, line.hasPrefix("postgresql:") else {
            throw NoServer(description: "no PostgreSQL server: \(script.path) --serve could not start one (needs PostgreSQL 15: apt-get install postgresql-15); or set OBJECTGRAPH_POSTGRES_URL")
        }
        keep.withLock { $0 = (process, input) }
        return line
    }
    /// The serving script and our end of its standard input, kept open for the process's life.
    private static let keep = Mutex<(Process, Pipe)?>(nil)
}

extension FileHandle {
    /// The first line read, without its newline.
    func readLine() -> String? {
        var bytes: [UInt8] = []
        while true {
            let chunk = readData(ofLength: 1)
            guard let byte = chunk.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}

