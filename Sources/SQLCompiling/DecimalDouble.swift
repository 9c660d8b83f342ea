// A decimal as the double a REAL (or double precision) column holds.
import Foundation

extension Decimal {
    /// The `Double` nearest to the decimal's exact value: its text parsed as a double (which
    /// rounds correctly), so that `17.17` is stored as the double whose shortest text is
    /// `17.17` and reads back as the same decimal. swift-corelibs-foundation's
    /// `NSDecimalNumber.doubleValue` accumulates rounding errors (`17.17` →
    /// `17.169999999999998`, a different double).
    package var nearestDouble: Double {
        if isNaN { return .nan }
        return Double(description) ?? NSDecimalNumber(decimal: self).doubleValue
    }
}
