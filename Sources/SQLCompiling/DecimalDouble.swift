// A decimal as the double a REAL (or double precision) column holds.
import Foundation

extension Decimal {
    /// 2^53: every integer up to it is a `Double` exactly.
    private static let exactIntegerLimit = Decimal(UInt64(1) << 53)
    /// 10^0 … 10^22, each a `Double` exactly.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The `Double` nearest to the decimal's exact value, so that `17.17` is stored as the
    /// double whose shortest text is `17.17` and reads back as the same decimal.
    /// swift-corelibs-foundation's `NSDecimalNumber.doubleValue` accumulates rounding errors
    /// (`17.17` → `17.169999999999998`, a different double).
    ///
    /// A significand up to 2^53 with an exponent within ±22 is one exact multiplication or
    /// division (one rounding: the nearest double); other decimals parse their text, which
    /// rounds correctly too (slower: about ten times).
    package var nearestDouble: Double {
        if isNaN { return .nan }
        let exponent = self.exponent
        if (-22...22).contains(exponent) {
            let significand = self.significand
            if significand <= Self.exactIntegerLimit {
                let whole = Double(NSDecimalNumber(decimal: significand).uint64Value)
                let value = exponent >= 0 ? whole * Self.powersOfTen[exponent] : whole / Self.powersOfTen[-exponent]
                return sign == .minus ? -value : value
            }
        }
        return Double(description) ?? NSDecimalNumber(decimal: self).doubleValue
    }
}
