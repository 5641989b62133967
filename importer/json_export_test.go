package importer

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/record"
)

// TestExportAdditions reads what rdbgen's export adds to the objects of `rdb -c json`.
func TestExportAdditions(t *testing.T) {
	in := `{"type":"function","name":"l","code":"#!lua name=l\n\udcff"}
{"db":2,"key":"\udc80a\udcff\ud83d\ude00\udc7f\udc00","value":"\udcc3(","expiration":253402300800000}
{"key":"h","type":"hash","hash":{"f":"1","g":"2"},"fieldExpirations":{"g":"2100-01-01T00:00:00.001Z"}}
{"key":"x","type":"stream","entries":[{"fields":["c","c"],"msgs":[{"id":"1-1","fields":{"c":"2","c":"1"}}]}],"version":3}`
	var got record.Recorder
	stats, err := Copy(context.Background(), &got, func() (Reader, error) { return NewJSONReader(strings.NewReader(in)), nil }, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Functions != 1 || stats.Records != 3 || len(got.Functions) != 1 || string(got.Functions[0]) != "#!lua name=l\n\xff" {
		t.Errorf("stats %+v, libraries %q", stats, got.Functions)
	}
	want := []record.Record{
		// \udc80-\udcff are bytes; other lone surrogates U+FFFD, as before.
		{DB: 2, Key: []byte("\x80a\xff😀\ufffd\ufffd"), Type: record.String, Value: []byte("\xc3("), ExpireAtMS: 253402300800000},
		{Key: []byte("h"), Type: record.Hash, Members: []record.Member{{Name: []byte("f"), Value: []byte("1")}, {Name: []byte("g"), Value: []byte("2"), ExpireAtMS: 4102444800001}}},
		// A name that repeats takes its values in their order.
		{Key: []byte("x"), Type: record.Stream, Members: []record.Member{{ID: record.StreamID{Ms: 1, Seq: 1}, Fields: [][]byte{[]byte("c"), []byte("2"), []byte("c"), []byte("1")}}}},
	}
	for i, w := range want {
		if i >= len(got.Records) {
			t.Fatalf("%d records, want %d", len(got.Records), len(want))
		}
		g := got.Records[i]
		g.Stream = record.StreamTail{}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
}

// TestExportAdditionsRefused: what import refuses of export's additions, each with a message
// that names it.
func TestExportAdditionsRefused(t *testing.T) {
	tests := []struct{ json, msg string }{
		{`{"type":"function","name":"x"}`, `function: no "code"`},
		{`{"type":"function","code":1}`, `function: "code"`},
		{`{"key":"h","type":"hash","hash":{"f":"v"},"fieldExpirations":{"g":"2100-01-01T00:00:00Z"}}`, `field "g" is not in "hash"`},
		{`{"key":"h","type":"hash","hash":{"f":"v"},"fieldExpirations":{"f":"soon"}}`, `field "f": "soon": want an RFC 3339 time`},
		{`{"key":"s","value":"v","expiration":0}`, `"expiration" 0: want an RFC 3339 time such as 2025-01-02T15:04:05.123Z, or Unix ms after 0`},
		{`{"key":"s","value":"v","expiration":-5}`, `Unix ms after 0`},
		{`{"key":"s","value":"v","expiration":1.5}`, `Unix ms after 0`},
	}
	for _, tt := range tests {
		open := func() (Reader, error) { return NewJSONReader(strings.NewReader(tt.json)), nil }
		_, err := Copy(context.Background(), record.Discard{}, open, Options{})
		if err == nil || !strings.Contains(err.Error(), tt.msg) || !strings.HasPrefix(err.Error(), "line 1: ") {
			t.Errorf("%s: %v, want line 1 and %q", tt.json, err, tt.msg)
		}
	}
}
