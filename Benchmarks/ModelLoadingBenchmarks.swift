import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ObjectGraph

// Loading an Xcode data model: the largest real model of the test fixtures (MagicalRecord's
// TestModel, about 11 KB, 12 entities, 9 inverse-less relationships), read from memory, beside
// parsing the same bytes with XMLParser and a delegate that does nothing.

/// The XML of the benchmark model, read once, on first use (from the test fixtures, found
/// relative to this source file).
private let testModelXML: Data = {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/ManagedObjectsTests/Fixtures/models/magicalrecord")
        .appendingPathComponent("TestModel.xcdatamodeld/TestModel.xcdatamodel/contents")
    guard let data = try? Data(contentsOf: file) else { fail("cannot read \(file.path)", status: 2) }
    return data
}()

/// A delegate that ignores every callback: the cost of XMLParser alone.
private final class EmptyXMLDelegate: NSObject, XMLParserDelegate {}

/// Parses `data` with an empty delegate; returns whether it parsed.
private func parseWithEmptyDelegate(_ data: Data, _ delegate: EmptyXMLDelegate) -> Bool {
    let parser = XMLParser(data: data)
    parser.delegate = delegate
    return parser.parse()
}

func registerModelLoadingBenchmarks(in suite: BenchmarkSuite) {
    let loads = 1_000
    suite.add("model_load", baseline: "xmlparser_empty_delegate", operationsPerIteration: loads, target: .ratio(2),
              note: "ns per load of the 11 KB MagicalRecord TestModel from memory",
              body: { n in
                  let data = testModelXML
                  for _ in 0..<(n * loads) { blackHole(try! ManagedObjectModel(xmlData: data, fileName: "TestModel")) }
              },
              baseline: { n in
                  let data = testModelXML
                  let delegate = EmptyXMLDelegate()
                  for _ in 0..<(n * loads) { blackHole(parseWithEmptyDelegate(data, delegate)) }
              })
}
