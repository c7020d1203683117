import ControlAPI
import XCTest

/// The equaliser's values as the control API takes them: eleven finite gains within the limits, or nothing.
final class EqualizerSettingTests: XCTestCase {
    func testElevenGainsWithinTheLimitsAreASetting() throws {
        let setting = try EqualizerSetting(values: [-3, 4, 3, 2, 0, 0, -6, 0, -1, -2, 12])
        XCTAssertEqual(setting.preAmp, -3)
        XCTAssertEqual(setting.gains[5], -6, "the 1k band is the sixth")
        XCTAssertEqual(setting.values, [-3, 4, 3, 2, 0, 0, -6, 0, -1, -2, 12])
        XCTAssertFalse(setting.isFlat)
        XCTAssertTrue(EqualizerSetting.flat.isFlat)
    }

    func testAnythingElseIsRefusedWithItsReason() {
        let flat = Array(repeating: 0.0, count: 11)
        func refusal(_ values: [Double]) -> String? {
            do { _ = try EqualizerSetting(values: values); return nil } catch { return error.description }
        }
        XCTAssertEqual(refusal([]), "11 gains are needed (the pre-amp, then 10 bands), not 0")
        XCTAssertEqual(refusal(flat + [0]), "11 gains are needed (the pre-amp, then 10 bands), not 12")
        for (index, bad) in [(0, Double.nan), (3, .infinity), (6, -.infinity), (10, 12.001), (1, -24.001), (2, 1e308)] {
            var values = flat
            values[index] = bad
            XCTAssertNotNil(refusal(values), "\(bad) at \(index)")
        }
        var loud = flat
        loud[6] = 20
        XCTAssertEqual(refusal(loud), "the 1k band must be from -24 to +12 dB, not 20.0")
        loud = flat
        loud[0] = -30
        XCTAssertEqual(refusal(loud), "the pre-amp must be from -24 to +12 dB, not -30.0")
    }

    func testABandIsSetByItsName() {
        XCTAssertEqual(EqualizerSetting.flat.setting("1k", to: -6)?.values[6], -6)
        XCTAssertEqual(EqualizerSetting.flat.setting("preamp", to: -2)?.preAmp, -2)
        XCTAssertNil(EqualizerSetting.flat.setting("3k", to: -6))
    }

    func testShippedPresetsAreValidAndNamedAsUsersMustNameTheirs() throws {
        for (name, setting) in EqualizerPresets.shipped {
            XCTAssertNoThrow(try EqualizerSetting(values: setting.values), name)
            XCTAssertTrue(EqualizerPresets.isValidName(name), name)
        }
        for name in ["", "off", "custom", "Warm", "a b", "ä", "../x", String(repeating: "a", count: 41)] {
            XCTAssertFalse(EqualizerPresets.isValidName(name), name)
        }
    }
}
