// The PostgreSQL store's connection settings beside its URL: pool size, timeouts, libpq keywords.
import Foundation

/// How a ``PostgreSQLPersistentStore`` connects: the size of its connection pool, its timeouts
/// and extra libpq connection keywords (TLS settings, a user name…).
///
/// Each setting can also come from the connection URL's query (`pool_size=4`,
/// `statement_timeout=5000` in milliseconds, `connect_timeout=10` in seconds, `sslmode=…`);
/// a value set here wins over the URL's.
///
/// ```swift
/// var options = PostgreSQLStoreOptions()
/// options.poolSize = 4
/// options.statementTimeout = .seconds(5)
/// options.parameters["sslmode"] = "verify-full"
/// options.parameters["sslrootcert"] = "/etc/ssl/db-ca.pem"
/// let store = PostgreSQLPersistentStore(url: "postgresql://app@db.example/shop", options: options)
/// ```
///
/// Core Data has no server store; the settings follow libpq's
/// (`connect_timeout`, `statement_timeout`, `sslmode`).
///
/// - Important: Thread safety: a `Sendable` value.
public struct PostgreSQLStoreOptions: Sendable, Hashable {
    /// The number of connections the store opens at most, one per concurrent call (fetch,
    /// save…); `nil` for the URL's `pool_size`, or 2. Values below 1 count as 1.
    public var poolSize: Int?
    /// How long making a connection may take (libpq's `connect_timeout`, whole seconds, at
    /// least 2); `nil` for the URL's or libpq's (no limit).
    public var connectTimeout: Duration?
    /// How long one statement may run before the server cancels it (PostgreSQL's
    /// `statement_timeout`); `nil` for the URL's or the server's (usually no limit). A
    /// cancelled statement throws ``PostgreSQLStoreError/Code/timedOut(_:)``.
    public var statementTimeout: Duration?
    /// libpq connection keywords added to the URL's (`sslmode`, `sslrootcert`, `sslcert`,
    /// `sslkey`, `user`, `application_name`…), passed to libpq unchanged; they win over the
    /// URL's.
    public var parameters: [String: String]

    /// Options with every setting from the URL or the defaults.
    public init(poolSize: Int? = nil, connectTimeout: Duration? = nil, statementTimeout: Duration? = nil,
                parameters: [String: String] = [:]) {
        self.poolSize = poolSize
        self.connectTimeout = connectTimeout
        self.statementTimeout = statementTimeout
        self.parameters = parameters
    }

    /// The pool size used when neither the options nor the URL give one.
    public static let defaultPoolSize = 2
}

/// A store's connection settings, resolved from its URL and options: what libpq receives, and
/// the secrets no message may show.
///
/// - Important: Thread safety: a `Sendable` value.
package struct PostgreSQLConnectionConfiguration: Sendable {
    /// The URL without the store's own query keys (`pool_size`, `statement_timeout`).
    package var libpqURL: String
    /// libpq keywords that win over the URL's.
    package var keywords: [(String, String)]
    /// The pool size (at least 1).
    package var poolSize: Int
    /// `statement_timeout` in milliseconds, or `nil`.
    package var statementTimeoutMilliseconds: Int64?
    /// Passwords (as given, and as written in the URL) that messages must not show.
    package var secrets: [String]

    /// Resolves a URL and options.
    ///
    /// - Parameters:
    ///   - url: A libpq connection string (URL or `key=value` pairs).
    ///   - options: Settings winning over the URL's.
    ///   - environment: The environment libpq reads (`PGPASSWORD`), for the secrets.
    package init(url: String, options: PostgreSQLStoreOptions = PostgreSQLStoreOptions(),
                 environment: [String: String] = ProcessInfo.processInfo.environment) {
        var own: [String: String] = [:]
        libpqURL = Self.removingOwnKeys(from: url, into: &own)
        var keywords: [(String, String)] = []
        let connectSeconds = options.connectTimeout.map { duration -> Int64 in
            let (seconds, attoseconds) = duration.components
            return max(2, seconds + (attoseconds > 0 ? 1 : 0))
        }
        if let connectSeconds { keywords.append(("connect_timeout", String(connectSeconds))) }
        for (key, value) in options.parameters.sorted(by: { $0.key < $1.key }) { keywords.append((key, value)) }
        self.keywords = keywords
        poolSize = max(1, options.poolSize ?? own["pool_size"].flatMap { Int($0) } ?? PostgreSQLStoreOptions.defaultPoolSize)
        if let timeout = options.statementTimeout {
            let (seconds, attoseconds) = timeout.components
            statementTimeoutMilliseconds = max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        } else {
            statementTimeoutMilliseconds = own["statement_timeout"].flatMap { Int64($0) }
        }
        var secrets: [String] = []
        if let password = options.parameters["password"] { secrets.append(password) }
        if let password = environment["PGPASSWORD"] { secrets.append(password) }
        secrets.append(contentsOf: Self.passwords(in: url))
        self.secrets = secrets.filter { !$0.isEmpty }
    }

    /// `text` with every secret replaced by `********`.
    package func scrubbed(_ text: String) -> String {
        var text = text
        for secret in secrets where text.contains(secret) {
            text = text.replacingOccurrences(of: secret, with: "********")
        }
        return text
    }

    /// The URL without `pool_size` and `statement_timeout` in its query (libpq refuses keys it
    /// does not know), their values put in `own`. `key=value` strings are kept as they are.
    static func removingOwnKeys(from url: String, into own: inout [String: String]) -> String {
        guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://"),
              let mark = url.firstIndex(of: "?") else { return url }
        var kept: [Substring] = []
        for pair in url[url.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(parts[0])
            if key == "pool_size" || key == "statement_timeout" {
                own[key] = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            } else {
                kept.append(pair)
            }
        }
        let base = String(url[..<mark])
        return kept.isEmpty ? base : base + "?" + kept.joined(separator: "&")
    }

    /// The passwords a connection string holds, decoded and as written: the user information
    /// of a URL, `password=` of its query or of `key=value` pairs.
    static func passwords(in url: String) -> [String] {
        var found: [String] = []
        func add(_ raw: Substring) {
            let text = String(raw)
            found.append(text)
            if let decoded = text.removingPercentEncoding, decoded != text { found.append(decoded) }
        }
        if url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") {
            let rest = url[url.range(of: "://")!.upperBound...]
            let authority = rest.prefix { $0 != "/" && $0 != "?" }
            if let at = authority.lastIndex(of: "@") {
                let user = authority[..<at]
                if let colon = user.firstIndex(of: ":") { add(user[user.index(after: colon)...]) }
            }
            if let mark = url.firstIndex(of: "?") {
                for pair in url[url.index(after: mark)...].split(separator: "&") where pair.hasPrefix("password=") {
                    add(pair.dropFirst("password=".count))
                }
            }
        } else {
            // key=value pairs: the value may be quoted.
            var rest = Substring(url)
            while let range = rest.range(of: "password") {
                var after = rest[range.upperBound...].drop { $0 == " " }
                guard after.first == "=" else { rest = rest[range.upperBound...]; continue }
                after = after.dropFirst().drop { $0 == " " }
                if after.first == "'" {
                    let body = after.dropFirst()
                    add(body.prefix { $0 != "'" })
                } else {
                    add(after.prefix { $0 != " " })
                }
                rest = rest[range.upperBound...]
            }
        }
        return found
    }
}
