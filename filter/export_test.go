package filter

// SetMaxHeldMem sets how many bytes of fields a held hash keeps in memory, and returns the
// function that restores it.
func SetMaxHeldMem(n int) func() {
	old := maxHeldMem
	maxHeldMem = n
	return func() { maxHeldMem = old }
}
