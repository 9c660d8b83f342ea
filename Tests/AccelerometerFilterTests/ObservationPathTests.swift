import AccelerometerFilter
import Foundation
import KeyValueObserving
import Synchronization
import Testing

/// Collects values from observation handlers.
final class Collected: Sendable {
    let values = Mutex<[Double]>([])
    func append(_ value: Double) { values.withLock { $0.append(value) } }
    var all: [Double] { values.withLock { $0 } }
}

@Suite("The observation path")
struct ObservationPathTests {
    static let samples = [AccelerometerSample(t: 0, x: 1, y: 0, z: 0),
                          AccelerometerSample(t: 0.5, x: 0, y: 2, z: 0),
                          AccelerometerSample(t: 1, x: 0, y: 0, z: 4)]

    @Test func filterPublishesOnlyThroughItsObservableProperties() throws {
        let accelerometer = Accelerometer()
        let settings = FilterSettings(kind: .lowpass, factor: 0.5, rate: 2)
        let filter = try AccelerationFilter(observing: accelerometer, settings: settings)
        let seen = Collected()
        let token = try filter.observe("timestamp", options: [.new]) { filter, change in
            seen.append(filter.x)
            seen.append(change.newValue as? Double ?? -1)
        }
        accelerometer.x = 1
        accelerometer.y = 1
        #expect(seen.all.isEmpty)              // no complete sample yet
        accelerometer.timestamp = 0.25
        #expect(seen.all == [0.5, 0.25])
        #expect(filter.y == 0.5 && filter.z == 0)
        #expect(filter.state.output == AccelerometerSample(t: 0.25, x: 0.5, y: 0.5, z: 0))
        filter.stopObserving()
        accelerometer.timestamp = 0.5
        #expect(seen.all.count == 2)
        token.invalidate()
    }

    @Test func setValueForKeyFeedsTheFilterToo() throws {
        let accelerometer = Accelerometer()
        let filter = try AccelerationFilter(observing: accelerometer,
                                            settings: FilterSettings(kind: .lowpass, factor: 1, rate: 1))
        try accelerometer.setValue(0.75, forKey: "z")
        try accelerometer.setValue(3.0, forKey: "timestamp")
        #expect(filter.z == 0.75)
        #expect(filter.timestamp == 3)
    }

    @Test func filtersChainByObservingEachOther() throws {
        let recording = try AccelerometerRecording(samples: Self.samples)
        let accelerometer = Accelerometer()
        let first = try AccelerationFilter(observing: accelerometer,
                                           settings: FilterSettings(kind: .lowpassRC, rate: recording.rate))
        let second = try AccelerationFilter(observing: first,
                                            settings: FilterSettings(kind: .highpassRC, rate: recording.rate))
        let recorder = try AccelerometerRecorder(raw: first, filtered: second)
        AccelerometerPlayer(recording: recording).play(into: accelerometer)
        let expectedFirst = first.settings.apply(to: Self.samples)
        #expect(recorder.raw == expectedFirst)
        #expect(recorder.filtered == second.settings.apply(to: expectedFirst))
    }

    @Test func recorderStopsWhenAsked() throws {
        let accelerometer = Accelerometer()
        let filter = try AccelerationFilter(observing: accelerometer, settings: FilterSettings(rate: 2))
        let recorder = try AccelerometerRecorder(raw: accelerometer, filtered: filter)
        accelerometer.timestamp = 1
        recorder.stopRecording()
        accelerometer.timestamp = 2
        #expect(recorder.raw.map(\.t) == [1])
        #expect(recorder.filtered.map(\.t) == [1])
    }

    @Test func sourcesWithoutTheKeysAreRejected() {
        final class Thermometer: KeyValueObservable {
            @Observed var celsius = 0.0
        }
        #expect(throws: KeyValueObservingError.self) {
            try AccelerationFilter(observing: Thermometer(), settings: FilterSettings(rate: 1))
        }
    }

    @Test func playerPacesByOffsetsFromTheFirstSample() throws {
        let shifted = Self.samples.map { AccelerometerSample(t: $0.t + 10, x: $0.x, y: $0.y, z: $0.z) }
        let recording = try AccelerometerRecording(samples: shifted)
        let accelerometer = Accelerometer()
        var offsets: [Double] = []
        var timestampsAtPace: [Double] = []
        AccelerometerPlayer(recording: recording).play(into: accelerometer) { offset in
            offsets.append(offset)
            timestampsAtPace.append(accelerometer.timestamp)
        }
        #expect(offsets == [0, 0.5, 1])
        #expect(timestampsAtPace == [0, 10, 10.5])   // the pacer runs before each sample is stored
        #expect(accelerometer.timestamp == 11 && accelerometer.z == 4)
    }

    @Test func realtimePacerRunsAndReturns() throws {
        let recording = try AccelerometerRecording(samples: [AccelerometerSample(t: 0, x: 1, y: 1, z: 1),
                                                             AccelerometerSample(t: 0.01, x: 2, y: 2, z: 2)])
        let run = try FilterPipeline.run(recording, settings: FilterSettings(rate: recording.rate),
                                         pacer: AccelerometerPlayer.realtimePacer())
        #expect(run.raw == recording.samples)
    }
}
