package export_test

import (
	"context"
	"fmt"
	"os"

	"github.com/rdbgen/rdbgen/export"
	"github.com/rdbgen/rdbgen/record"
)

// A Writer is a record.Sink: any source writes into it. Bytes that are not UTF-8 come out
// as \udcXX, which rdbgen's import reads back as the bytes.
func Example() {
	w, err := export.NewWriter(os.Stdout, export.Options{Format: export.FormatJSONL})
	if err != nil {
		fmt.Println(err)
		return
	}
	recs := record.Records{
		{Key: []byte("user:1"), Type: record.Hash, Members: []record.Member{{Name: []byte("name"), Value: []byte("ada")}}},
		{DB: 1, Key: []byte("bin\xff"), Type: record.String, Value: []byte("v"), ExpireAtMS: 4102444800123},
	}
	if err := recs.WriteTo(context.Background(), w); err != nil {
		fmt.Println(err)
		return
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"db":0,"key":"user:1","type":"hash","hash":{"name":"ada"}}
	// {"db":1,"key":"bin\udcff","expiration":"2100-01-01T00:00:00.123Z","type":"string","value":"v"}
}
