package decoder

// SetStringsFast turns the string records' fast path (readStrings) on or off, until the
// function it returns is called.
func SetStringsFast(on bool) (restore func()) {
	old := stringsFastOn
	stringsFastOn = on
	return func() { stringsFastOn = old }
}
