package memory

// KeyBytes returns the estimate of the last key counted, once it is whole (after Begin for a
// string, End otherwise): its entry and name in the main dict, its entry in the expires
// dict, and its value. The dicts' bucket arrays, which Result adds per database, belong to
// no key. 0 before the first key.
func (e *Estimator) KeyBytes() int64 { return e.last }
