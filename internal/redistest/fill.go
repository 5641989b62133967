package redistest

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
)

// WriteDumpFilled returns the path of a new RDB file, in a test temporary directory, that a
// real redis-server wrote with SAVE after fill ran against it: any mix of commands, in any
// databases (fill selects them itself, on a connection it holds, or with a pipeline).
func WriteDumpFilled(t testing.TB, fill func(context.Context, *redis.Client) error) string {
	t.Helper()
	return writeDump(t, fill)
}
