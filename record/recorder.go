package record

// A Recorder is a Sink that keeps every record written to it, whole and in order: a
// Collector that does not forget. Like Collector, it is for tests and small datasets.
type Recorder struct {
	Collector
	// Records are the records written so far.
	Records []Record
}

// Begin keeps a string or module record, or starts another.
func (r *Recorder) Begin(h *Header) error {
	if err := r.Collector.Begin(h); err != nil || !h.Type.Whole() {
		return err
	}
	r.Records = append(r.Records, r.Rec)
	return nil
}

// End keeps the collection or stream just ended.
func (r *Recorder) End(t *StreamTail) error {
	if err := r.Collector.End(t); err != nil {
		return err
	}
	r.Records = append(r.Records, r.Rec)
	return nil
}
