package importer

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/rdbgen/rdbgen/record"
)

// What rdbgen's export (package export) adds to the objects of `rdb -c json`, read here so
// that import reads back what export writes:
//
//   - bytes that are not valid UTF-8 written as lone low surrogates, byte 0xXX as \udcXX
//     (0x80 to 0xff), which unquote turns back into the bytes;
//   - "fieldExpirations": {"field": time, ...} beside a hash's "hash", the expiries of its
//     fields (Redis 7.4+);
//   - an "expiration" (or a field's) as a number of Unix ms, for a time RFC 3339 cannot
//     write (the year 10000 on);
//   - objects {"type":"function","code":"#!lua name=..."}: function libraries;
//   - module values, {"type":"module","moduleType":"ReJSON-RL","encodingVersion":3,
//     "serialized":"<base64>"} beside "db", "key" and "expiration": the module's opcode
//     stream as the file held it;
//   - module AUX data, {"type":"module-aux",...,"when":"before"|"after"}, the same three
//     fields without a key.

// typeFunction is the type of a function library's object. Read returns it as a record of
// this type whose Value is the library's code; Copy passes it to the sink's WriteFunction.
const typeFunction record.Type = "function"

// parseJSONFunction fills rec from the object of a function library.
func parseJSONFunction(raw []byte, rec *record.Record) error {
	var code []byte
	err := eachField(raw, func(name, value []byte) error {
		var err error
		if string(name) == "code" {
			code, err = str(value)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf(`function: "code": %v`, err)
	}
	if code == nil {
		return errors.New(`function: no "code"`)
	}
	*rec = record.Record{Type: typeFunction, Value: code, Members: rec.Members[:0]}
	return nil
}

// typeModuleAux is the type of a module AUX object. Read returns it as a record of this type
// whose ModuleID and Value are the data's and whose DB holds where the module saved it
// (record.ModuleAuxBefore or ModuleAuxAfter); Copy passes it to the sink's WriteModuleAux.
const typeModuleAux record.Type = "module-aux"

// parseJSONModule fills rec's ModuleID and Value from the fields of a module value or, with
// aux, of module AUX data (and its DB from "when").
func parseJSONModule(raw []byte, rec *record.Record, aux bool) error {
	what := "module"
	if aux {
		what = "module-aux"
	}
	var name, encver, serialized, when []byte
	err := eachField(raw, func(field, value []byte) error {
		switch string(field) {
		case "moduleType":
			name = value
		case "encodingVersion":
			encver = value
		case "serialized":
			serialized = value
		case "when":
			when = value
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %v", what, err)
	}
	if name == nil || encver == nil || serialized == nil || aux && when == nil {
		need := `"moduleType", "encodingVersion" and "serialized"`
		if aux {
			need = `"moduleType", "encodingVersion", "serialized" and "when"`
		}
		return fmt.Errorf("%s: needs %s", what, need)
	}
	n, err := str(name)
	if err != nil {
		return fmt.Errorf(`%s: "moduleType": %v`, what, err)
	}
	v, err := strconv.ParseUint(string(encver), 10, 64)
	if err != nil {
		return fmt.Errorf(`%s: "encodingVersion" %s: want a whole number from 0 to 1023`, what, clip(encver))
	}
	if rec.ModuleID, err = record.ModuleID(string(n), v); err != nil {
		return fmt.Errorf("%s: %v", what, err)
	}
	b64, err := str(serialized)
	if err != nil {
		return fmt.Errorf(`%s: "serialized": %v`, what, err)
	}
	if rec.Value, err = base64.StdEncoding.AppendDecode(nil, b64); err != nil {
		return fmt.Errorf(`%s: "serialized": not standard base64: %v`, what, err)
	}
	if aux {
		switch string(when) {
		case `"before"`, "1":
			rec.DB = record.ModuleAuxBefore
		case `"after"`, "2":
			rec.DB = record.ModuleAuxAfter
		default:
			return fmt.Errorf(`%s: "when" %s: want "before" or "after"`, what, clip(when))
		}
		rec.Type = typeModuleAux
	}
	return nil
}

// parseExpiration reads an expiration: an RFC 3339 time, or a whole number of Unix ms.
func parseExpiration(value []byte) (int64, error) {
	if len(value) > 0 && value[0] != '"' {
		ms, err := strconv.ParseInt(string(value), 10, 64)
		if err != nil || ms <= 0 {
			return 0, fmt.Errorf("%s: want an RFC 3339 time such as 2025-01-02T15:04:05.123Z, or Unix ms after 0", clip(value))
		}
		return ms, nil
	}
	exp, err := str(value)
	if err != nil {
		return 0, err
	}
	t, err := time.Parse(time.RFC3339Nano, string(exp))
	if err != nil {
		return 0, fmt.Errorf("%q: want an RFC 3339 time such as 2025-01-02T15:04:05.123Z", exp)
	}
	switch ms := t.UnixMilli(); {
	case t.Before(time.Unix(0, 0)):
		return 0, fmt.Errorf("%q: before 1970", exp)
	case ms == 0:
		return 0, fmt.Errorf("%q: within the first millisecond of 1970, which an RDB file cannot tell from no expiry", exp)
	default:
		return ms, nil
	}
}

// applyFieldExpirations sets the expiries of "fieldExpirations" on the fields of a hash,
// whose members are its fields in order.
func applyFieldExpirations(members []record.Member, raw []byte) error {
	byName := make(map[string]int, len(members))
	for i := range members {
		byName[string(members[i].Name)] = i
	}
	return eachField(raw, func(name, value []byte) error {
		i, ok := byName[string(name)]
		if !ok {
			return fmt.Errorf(`"fieldExpirations": field %q is not in "hash"`, name)
		}
		ms, err := parseExpiration(value)
		if err != nil {
			return fmt.Errorf(`"fieldExpirations": field %q: %v`, name, err)
		}
		members[i].ExpireAtMS = ms
		return nil
	})
}
