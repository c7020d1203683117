import XCTest

final class PlaceholderPlayerCoreTests: XCTestCase {}
