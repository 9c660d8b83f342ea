import ObjectGraph

func registerKeyValueCodingBenchmarks(in suite: BenchmarkSuite) {}
