import Foundation
import Testing
@testable import Predicates

/// NaN (numbers and dates) sorts after nil and before every other number: a strict weak ordering.
@Suite("NaN ordering")
struct NaNOrderingTests {
    private func sortedValues(_ values: [Any?], ascending: Bool = true) throws -> [String] {
        let rows: [[String: Any]] = values.enumerated().map { index, value in
            value.map { ["v": $0, "i": index] } ?? ["i": index]
        }
        let sorted = try rows.sorted(using: [KeyValueSortDescriptor(key: "v", ascending: ascending)])
        return sorted.map { row in
            guard let value = row["v"] else { return "nil" }
            if let date = value as? Date { return "d" + String(describing: date.timeIntervalSinceReferenceDate) }
            return String(describing: value)
        }
    }

    @Test func doublesWithNaNSortBothWays() throws {
        let values: [Any?] = [3.0, Double.nan, 1.0, 2.0, Double.nan, 0.5]
        #expect(try sortedValues(values) == ["nan", "nan", "0.5", "1.0", "2.0", "3.0"])
        #expect(try sortedValues(values, ascending: false) == ["3.0", "2.0", "1.0", "0.5", "nan", "nan"])
    }

    @Test func mixedIntegersDoublesNaNAndNil() throws {
        let values: [Any?] = [3, Double.nan, 1, 2.5, nil, -Double.infinity, Double.infinity, -1]
        #expect(try sortedValues(values) == ["nil", "nan", "-inf", "-1", "1", "2.5", "3", "inf"])
        #expect(try sortedValues(values, ascending: false) == ["inf", "3", "2.5", "1", "-1", "-inf", "nan", "nil"])
    }

    @Test func datesWithNaN() throws {
        let values: [Any?] = [Date(timeIntervalSinceReferenceDate: 5), Date(timeIntervalSinceReferenceDate: .nan),
                              Date(timeIntervalSinceReferenceDate: 1)]
        #expect(try sortedValues(values) == ["dnan", "d1.0", "d5.0"])
        #expect(try sortedValues(values, ascending: false) == ["d5.0", "d1.0", "dnan"])
    }

    @Test func compareIsAntisymmetric() throws {
        let descriptor = KeyValueSortDescriptor(key: "v")
        let nan: [String: Any] = ["v": Double.nan]
        let one: [String: Any] = ["v": 1]
        let oneDouble: [String: Any] = ["v": 1.0]
        #expect(try descriptor.compare(nan, to: one) == .orderedAscending)
        #expect(try descriptor.compare(one, to: nan) == .orderedDescending)
        #expect(try descriptor.compare(nan, to: oneDouble) == .orderedAscending)
        #expect(try descriptor.compare(oneDouble, to: nan) == .orderedDescending)
        #expect(try descriptor.compare(nan, to: nan) == .orderedSame)
        let nanDate: [String: Any] = ["v": Date(timeIntervalSinceReferenceDate: .nan)]
        let date: [String: Any] = ["v": Date(timeIntervalSinceReferenceDate: 0)]
        #expect(try descriptor.compare(nanDate, to: date) == .orderedAscending)
        #expect(try descriptor.compare(date, to: nanDate) == .orderedDescending)
    }

    @Test func predicatesOrderNaNTheSameWay() throws {
        let values: [String: Any] = ["n": Double.nan, "d": Date(timeIntervalSinceReferenceDate: .nan)]
        #expect(try KeyValuePredicate(format: "n < 1").evaluate(with: values))
        #expect(try KeyValuePredicate(format: "n < -1.5").evaluate(with: values))
        #expect(try !KeyValuePredicate(format: "n > 1.5").evaluate(with: values))
        #expect(try !KeyValuePredicate(format: "n > 1").evaluate(with: values))
        #expect(try KeyValuePredicate(format: "n == n").evaluate(with: values))
        #expect(try KeyValuePredicate(format: "%@ < n", NSNull()).evaluate(with: values) == false)
        #expect(try KeyValuePredicate(format: "d < %@", Date(timeIntervalSinceReferenceDate: 0)).evaluate(with: values))
        #expect(try KeyValuePredicate(format: "d == d").evaluate(with: values))
    }
}
