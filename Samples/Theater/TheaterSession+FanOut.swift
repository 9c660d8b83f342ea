// A theater on a PostgreSQL database: what other processes save reaches the listing through the
// store's fan-out (LISTEN/NOTIFY carrying history tokens), merged before the next command.

import Foundation
import ManagedObjects
import PostgreSQLStore

extension TheaterSession {
    /// The description of the PostgreSQL store at `url`.
    static func postgreSQLDescription(at url: URL) -> StoreDescription {
        StoreDescription.postgreSQL(at: url)
    }
}
