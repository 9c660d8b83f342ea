import AccelerometerFilter
import Foundation
import Testing

@Suite("Reading recordings")
struct RecordingParsingTests {
    @Test func readsColumnsInAnyOrderWithExtraColumnsAndCRLF() throws {
        let recording = try AccelerometerRecording(csv: "z,t,extra,x,y\r\n3,0,a,1,2\r\n\r\n6,0.5,b,4,5\r\n")
        #expect(recording.samples == [AccelerometerSample(t: 0, x: 1, y: 2, z: 3),
                                      AccelerometerSample(t: 0.5, x: 4, y: 5, z: 6)])
        #expect(recording.rate == 2)
        #expect(recording.duration == 0.5)
    }

    @Test func emptyFileIsAnErrorAtLineOne() {
        #expect(throws: RecordingError.empty(line: 1)) { try AccelerometerRecording(csv: "") }
        #expect(throws: RecordingError.empty(line: 1)) { try AccelerometerRecording(csv: "\n  \n") }
    }

    @Test func headerOnlyHasTooFewSamples() {
        #expect(throws: RecordingError.tooFewSamples(0, line: 2)) { try AccelerometerRecording(csv: "t,x,y,z\n") }
        #expect(throws: RecordingError.tooFewSamples(1, line: 3)) {
            try AccelerometerRecording(csv: "t,x,y,z\n0,1,2,3\n")
        }
    }

    @Test func missingColumnNamesTheColumnAndLine() {
        #expect(throws: RecordingError.missingColumn("z", line: 1)) {
            try AccelerometerRecording(csv: "t,x,y\n0,1,2\n1,1,2\n")
        }
        #expect(throws: RecordingError.missingColumn("t", line: 2)) {
            try AccelerometerRecording(csv: "\ntime,x,y,z\n0,1,2,3\n")
        }
        #expect(throws: RecordingError.duplicateColumn("x", line: 1)) {
            try AccelerometerRecording(csv: "t,x,x,y,z\n")
        }
    }

    @Test func rowWithMissingFieldNamesTheLine() {
        #expect(throws: RecordingError.wrongFieldCount(expected: 4, found: 3, line: 3)) {
            try AccelerometerRecording(csv: "t,x,y,z\n0,1,2,3\n0.1,1,2\n0.2,1,2,3\n")
        }
    }

    @Test(arguments: ["abc", "", "1.2.3", "nan", "inf", "0x"])
    func nonNumberNamesTheTextColumnAndLine(text: String) {
        #expect(throws: RecordingError.notANumber(text, column: "y", line: 4)) {
            try AccelerometerRecording(csv: "t,x,y,z\n0,1,2,3\n0.1,1,2,3\n0.2,1,\(text),3\n")
        }
    }

    @Test func timeMustIncrease() {
        #expect(throws: RecordingError.timeNotIncreasing(0.1, previous: 0.2, line: 4)) {
            try AccelerometerRecording(csv: "t,x,y,z\n0,1,2,3\n0.2,1,2,3\n0.1,1,2,3\n")
        }
        #expect(throws: RecordingError.timeNotIncreasing(0.2, previous: 0.2, line: 4)) {
            try AccelerometerRecording(csv: "t,x,y,z\n0,1,2,3\n0.2,1,2,3\n0.2,1,2,3\n")
        }
    }

    @Test func errorDescriptionsNameTheLine() throws {
        let error = try #require(throws: RecordingError.self) {
            try AccelerometerRecording(csv: "t,x,y,z\n0,1,2,3\n0.1,1,oops,3\n")
        }
        #expect(error.line == 3)
        #expect(error.description == "line 3: 'oops' in column 'y' is not a finite number")
        #expect(RecordingError.missingColumn("z", line: 1).description.hasPrefix("line 1: "))
        #expect(RecordingError.timeNotIncreasing(1, previous: 2, line: 9).description.hasPrefix("line 9: "))
        #expect(RecordingError.empty(line: 1).description.hasPrefix("line 1: "))
    }

    @Test func unreadableFileIsAnError() {
        #expect(throws: RecordingError.unreadable(path: "/no/such/file.csv",
                                                  reason: "no such file")) {
            try AccelerometerRecording(contentsOfFile: "/no/such/file.csv")
        }
    }

    @Test func samplesInMemoryAreChecked() {
        let a = AccelerometerSample(t: 1, x: 0, y: 0, z: 0)
        #expect(throws: RecordingError.tooFewSamples(1, line: 3)) { try AccelerometerRecording(samples: [a]) }
        #expect(throws: RecordingError.timeNotIncreasing(1, previous: 1, line: 3)) {
            try AccelerometerRecording(samples: [a, a])
        }
    }

    @Test func bundledRecordingIsFoundFromAnyDirectory() throws {
        let fromElsewhere = BundledRecordings.path(of: BundledRecordings.default50Hz, currentDirectory: "/")
        #expect(fromElsewhere.hasSuffix("Samples/Data/accelerometer/gaitpy_geneactiv_lowerback_50hz.csv"))
        #expect(FileManager.default.fileExists(atPath: fromElsewhere))
        let recording = try AccelerometerRecording(contentsOfFile: fromElsewhere)
        #expect(recording.samples.count == 8100)
        for name in ["README.md", "LICENSE-gaitpy.txt", "LICENSE-scikit-kinematics.txt", BundledRecordings.walking120Hz] {
            #expect(FileManager.default.fileExists(atPath: TestData.path(name)))
        }
    }
}
