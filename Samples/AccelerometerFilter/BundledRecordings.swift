import Foundation

/// The recordings bundled with the sample in `Samples/Data/accelerometer/`, and how to find them.
public enum BundledRecordings {
    /// The directory of the bundled recordings, relative to the package root.
    public static let directory = "Samples/Data/accelerometer"
    /// The 50 Hz recording (GENEActiv, lower back, gait demo), the command's default input.
    public static let default50Hz = "gaitpy_geneactiv_lowerback_50hz.csv"
    /// The 120 Hz recording (Xsens, lower leg, walking).
    public static let walking120Hz = "skinematics_xsens_lowerleg_walking_120hz.csv"

    /// The path of a bundled recording.
    ///
    /// Looks first relative to the current directory (so `swift run accelerometer-filter` works
    /// from the package root and prints a short path), then relative to this source file's
    /// place in the checkout (so it works from any directory).
    ///
    /// - Parameters:
    ///   - name: The file name, for example ``default50Hz``.
    ///   - currentDirectory: The directory to try first; the process's current directory by default.
    /// - Returns: The first candidate that exists, or the current-directory candidate when none does
    ///   (reading it then reports the missing file).
    public static func path(of name: String,
                            currentDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        let relative = directory + "/" + name
        let fromCurrent = (currentDirectory as NSString).appendingPathComponent(relative)
        if FileManager.default.fileExists(atPath: fromCurrent) {
            return currentDirectory == FileManager.default.currentDirectoryPath ? relative : fromCurrent
        }
        let fromSource = packageRoot.appendingPathComponent(relative).path
        if FileManager.default.fileExists(atPath: fromSource) { return fromSource }
        return relative
    }

    /// The package root, found from this file's path (Samples/AccelerometerFilter/<this file>).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }
}
