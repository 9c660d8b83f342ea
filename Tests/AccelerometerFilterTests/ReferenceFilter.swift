import Foundation

/// The bundled recordings, read without the library's parser: a test-side reading of the files.
enum TestData {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/Data/accelerometer")

    static let fileNames = ["gaitpy_geneactiv_lowerback_50hz.csv", "skinematics_xsens_lowerleg_walking_120hz.csv"]

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Rows of `[t, x, y, z]`.
    static func rows(_ name: String) throws -> [[Double]] {
        let text = try String(contentsOfFile: path(name), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            line.split(separator: ",").map { Double(String($0))! }
        }
    }

    /// A temporary directory for one test.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("accelerometer-filter-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// A straightforward, independent computation of every filter of issue 6, sample 1, written
/// from the formulas with plain doubles. Returns rows of `[fx, fy, fz]`.
func referenceFilter(_ rows: [[Double]], filter: String, factor: Double = 0.1, cutoff: Double = 5,
                     adaptive: Bool) -> [[Double]] {
    let rate = Double(rows.count - 1) / (rows[rows.count - 1][0] - rows[0][0])
    let dt = 1.0 / rate
    let rc = 1.0 / cutoff
    let highpass = filter == "highpass-rc"
    let c: Double
    switch filter {
    case "lowpass": c = factor
    case "lowpass-rc": c = dt / (dt + rc)
    default: c = rc / (dt + rc)
    }
    var ox = 0.0, oy = 0.0, oz = 0.0
    var px = 0.0, py = 0.0, pz = 0.0
    var result: [[Double]] = []
    for row in rows {
        let ax = row[1], ay = row[2], az = row[3]
        var alpha = c
        if adaptive {
            let outNorm = sqrt(ox * ox + oy * oy + oz * oz)
            let aNorm = sqrt(ax * ax + ay * ay + az * az)
            let d = min(max(abs(outNorm - aNorm) / 0.02 - 1.0, 0.0), 1.0)
            if highpass {
                alpha = d * c / 3.0 + (1.0 - d) * c
            } else {
                alpha = (1.0 - d) * c / 3.0 + d * c
            }
        }
        if highpass {
            ox = alpha * (ox + ax - px)
            oy = alpha * (oy + ay - py)
            oz = alpha * (oz + az - pz)
            px = ax
            py = ay
            pz = az
        } else {
            ox = ax * alpha + ox * (1.0 - alpha)
            oy = ay * alpha + oy * (1.0 - alpha)
            oz = az * alpha + oz * (1.0 - alpha)
        }
        result.append([ox, oy, oz])
    }
    return result
}
