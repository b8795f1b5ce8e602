import Testing
@testable import StackModel

@Test func modelVersionIsSet() { #expect(!StackModelInfo.version.isEmpty) }
