package decoder

// SetKeyMask makes the hash of every key, and of every member logged (past
// SetLoggedMembers), its hash and-ed with mask (0: all have the same), until the function
// it returns is called.
func SetKeyMask(mask uint64) (restore func()) {
	old := keyMask
	keyMask = mask
	return func() { keyMask = old }
}

// SetLogSizes makes the hash log's batches and partition buffers hold chunk hashes, its
// writes one buffer, and its tables check table hashes at once, until the function it
// returns is called.
func SetLogSizes(chunk, table int) (restore func()) {
	oldChunk, oldTable, oldBatch, oldWrite := logChunk, maxTable, logBatch, logWrite
	logChunk, maxTable, logBatch, logWrite = chunk, table, chunk, chunk*8
	return func() { logChunk, maxTable, logBatch, logWrite = oldChunk, oldTable, oldBatch, oldWrite }
}

// SetLoggedMembers makes a collection's member hashes go to a hash log past n members,
// until the function it returns is called.
func SetLoggedMembers(n int) (restore func()) {
	old := loggedMembers
	loggedMembers = n
	return func() { loggedMembers = old }
}

// LoggedKeys reports whether the Reader logged the hashes of keys (it does not while the
// keys come in order).
func (rd *Reader) LoggedKeys() bool { return rd.log != nil }
