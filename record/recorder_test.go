package record

import (
	"reflect"
	"testing"
)

// TestRecorderKeepsEveryRecord writes records of each kind into a Recorder: it holds them
// all, in order, as they were.
func TestRecorderKeepsEveryRecord(t *testing.T) {
	want := []Record{
		{Key: []byte("s"), Type: String, Value: []byte("v"), ExpireAtMS: 4102444800000},
		{Key: []byte("h"), Type: Hash, Members: []Member{{Name: []byte("f"), Value: []byte("1")}, {Name: []byte("g"), Value: []byte("2")}}},
		{Key: []byte("z"), Type: ZSet, Members: []Member{{Name: []byte("m"), Score: 1.5}}},
		{Key: []byte("t"), Type: String, Value: []byte("")},
	}
	var r Recorder
	for i := range want {
		if err := want[i].WriteTo(&r); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(r.Records, want) {
		t.Fatalf("recorded %+v, want %+v", r.Records, want)
	}
}
