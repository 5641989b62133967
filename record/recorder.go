package record

// A Recorder is a Sink that keeps every record written to it, whole and in order: a
// Collector that does not forget. Like Collector, it is for tests and small datasets.
type Recorder struct {
	Collector
	// Records are the records written so far.
	Records []Record
}

// WriteString keeps a string record.
func (r *Recorder) WriteString(key, value []byte, exp int64) error {
	if err := r.Collector.WriteString(key, value, exp); err != nil {
		return err
	}
	r.Records = append(r.Records, r.Rec)
	return nil
}

// EndCollection keeps the collection or stream just ended.
func (r *Recorder) EndCollection() error {
	if err := r.Collector.EndCollection(); err != nil {
		return err
	}
	r.Records = append(r.Records, r.Rec)
	return nil
}
