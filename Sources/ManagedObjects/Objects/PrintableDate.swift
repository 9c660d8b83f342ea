// Dates in messages: Foundation's description traps on a date that is not a finite number.
import Foundation

/// A date as text for descriptions and error messages; a date whose seconds are NaN or
/// infinite (which `Date.description` cannot print on Linux) as its number of seconds.
package func printableDate(_ date: Date) -> String {
    let seconds = date.timeIntervalSinceReferenceDate
    guard seconds.isFinite, abs(seconds) < 1e15 else { return "date(\(seconds) s since 2001)" }
    return String(describing: date)
}
