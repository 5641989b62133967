package resp

import (
	"fmt"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/record"
)

// Module values and module AUX data. A module value has no command of Redis's own: it is
// sent as RESTORE key ttl payload REPLACE [ABSTTL], the payload written in the server's
// RDB version, which the server loads only when the module is loaded there (else it
// answers "Bad data format"). Module AUX data has no command at all.

// ModuleCounts count the module data sent, or left out.
type ModuleCounts struct {
	// Values counts the module values sent as RESTORE.
	Values uint64 `json:"values,omitempty"`
	// AuxDropped counts the module AUX records left out under Options.DropModuleAux.
	AuxDropped uint64 `json:"aux_dropped,omitempty"`
}

// ModuleCounts returns the counts of the module data so far.
func (c *Commands) ModuleCounts() ModuleCounts { return c.modules }

// writeModule sends a module value as RESTORE of its payload, with its expiry.
func (c *Commands) writeModule(h *record.Header) error {
	label := fmt.Sprintf("write key %q: module value of %q", h.Key, record.ModuleName(h.ModuleID))
	if v := c.restoreVersion(); !rdb.Can(v, rdb.ModuleValues) || !rdb.Can(v, rdb.Streams) {
		return c.fail(fmt.Errorf("%s: %w: module values go by RESTORE, whose payloads rdbgen writes for Redis 5.0 or later, not %s; leave such keys out with --skip-unsupported", label, ErrServerTooOld, c.o.Server))
	}
	p, err := c.payloadWriter()
	if err == nil {
		if err = p.Begin(h); err == nil {
			var payload []byte
			if payload, err = p.Payload(); err == nil {
				c.exp = h.ExpireAtMS
				c.modules.Values++
				// Other values go by commands, which replace a key: so does this one, unless
				// every value goes by RESTORE and REPLACE was not asked for.
				return c.sendRestore(h.Key, payload, !c.o.Restore || c.o.Replace)
			}
		} else {
			p.Abandon()
		}
	}
	return c.fail(fmt.Errorf("%s: %w", label, err))
}

// argTTL appends RESTORE's ttl argument for the open record's expiry: 0 for none, the ms
// left (ExpiryRelative) or the absolute expiry (with ABSTTL).
func (c *Commands) argTTL() {
	switch {
	case c.exp == 0:
		c.argInt(0)
	case c.o.Expiry == ExpiryRelative:
		c.argInt(c.left(c.exp))
	default:
		c.argInt(c.exp)
	}
}

// WriteModuleAux leaves a module's AUX data out, counted, under Options.DropModuleAux; it
// is otherwise an error naming the module and wrapping record.ErrModuleAuxUnsupported: no
// command puts it into a server.
func (c *Commands) WriteModuleAux(a *record.ModuleAux) error {
	if c.err != nil {
		return c.err
	}
	if c.o.DropModuleAux {
		c.modules.AuxDropped++
		return nil
	}
	return c.fail(fmt.Errorf("%s: %w: no command puts module AUX data into a server; leave it out with --drop-module-aux, or load an RDB file",
		a.Label(), record.ErrModuleAuxUnsupported))
}
