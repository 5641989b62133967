package resp

import (
	"fmt"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/record"
)

// FunctionLoad returns the arguments of the command that puts the function library code
// into a server (7.0+): FUNCTION LOAD code, or FUNCTION LOAD REPLACE code with replace, which
// replaces a library of the same name the server already has.
func FunctionLoad(code []byte, replace bool) [][]byte {
	args := [][]byte{[]byte("FUNCTION"), []byte("LOAD")}
	if replace {
		args = append(args, []byte("REPLACE"))
	}
	return append(args, code)
}

// WriteFunction sends FUNCTION LOAD of a function library (Redis 7.0+) (with REPLACE under
// Options.ReplaceFunctions), a command of no key and no database. A server before 7.0 has no
// functions: the error wraps ErrServerTooOld and names the library.
func (c *Commands) WriteFunction(code []byte) error {
	if c.err != nil {
		return c.err
	}
	if c.verb != "" || c.stream != nil {
		return c.fail(fmt.Errorf("%s: key %q is still open", record.LibraryLabel(code), c.key))
	}
	if !c.o.Server.Has(rdb.Functions) {
		return c.fail(fmt.Errorf("%s: %w: function libraries need Redis %s or later, not %s; leave them out with --drop-functions",
			record.LibraryLabel(code), ErrServerTooOld, FirstVersion(rdb.Functions), c.o.Server))
	}
	args := FunctionLoad(code, c.o.ReplaceFunctions)
	c.start(string(args[0]), args[1:]...)
	c.exp = 0
	return c.send(nil, false)
}
