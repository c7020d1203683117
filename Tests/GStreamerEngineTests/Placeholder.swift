import XCTest

final class PlaceholderGStreamerEngineTests: XCTestCase {}
