import XCTest

final class PlaceholderDBusTests: XCTestCase {}
