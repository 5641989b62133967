package loader

import (
	"context"

	"github.com/rdbgen/rdbgen/resp"
)

// ProbeAuto probes the server at addr as the Auto method does, as if its version were v,
// and returns whether it takes MSET and RESTORE, and what it refused.
func ProbeAuto(ctx context.Context, addr string, v resp.Version) (mset, restore bool, refused []string, err error) {
	l := &load{o: Options{Method: Auto, DialTimeout: DefaultDialTimeout, Timeout: DefaultTimeout}}
	err = l.probeAuto(ctx, addr, 0, v)
	caps := l.autoCaps(addr)
	return caps.mset, caps.restore, l.auto.Refused, err
}
