import Glibc
import Testing
import WatchConnection
import WatchPairTesting

/// One seeded random algorithm: WatchConnection's `SeededRandom` is SplitMix64, and the test kit's
/// `TestRandom` gives the same numbers for the same seed.
@Suite("SeededRandom and TestRandom")
struct SeededRandomTests {
    @Test("SeededRandom gives SplitMix64's reference numbers")
    func reference() {
        var random = SeededRandom(seed: 0)
        #expect((0..<3).map { _ in random.next() } == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
    }

    @Test("TestRandom replays SeededRandom's numbers for the same seed and keeps its seed", arguments: [UInt64(0), 42, .max])
    func same(seed: UInt64) {
        var seeded = SeededRandom(seed: seed)
        var test = TestRandom(seed: seed)
        #expect((0..<100).map { _ in test.next() } == (0..<100).map { _ in seeded.next() })
        #expect(test.seed == seed)
    }

    @Test("TestRandom seeds from its environment variable when set; a fresh seed replays its run")
    func environmentSeed() {
        // A variable of this test alone (the environment is the whole process's).
        let variable = "WATCHPAIR_TEST_SEED_OF_SEEDED_RANDOM_TESTS"
        setenv(variable, "1234", 1)
        #expect(TestRandom(seedVariable: variable).seed == 1234)
        unsetenv(variable)
        var fresh = TestRandom(seedVariable: variable)
        var replay = TestRandom(seed: fresh.seed)
        #expect((0..<10).map { _ in fresh.next() } == (0..<10).map { _ in replay.next() })
    }
}
