package live

import (
	"context"
	"fmt"
	"strings"
)

// MemAllocator returns the server's allocator as INFO memory names it (mem_allocator:
// "jemalloc-5.3.0", "libc"), for a memory estimate of what it holds.
func (s *Source) MemAllocator(ctx context.Context) (string, error) {
	c, err := s.client(0)
	if err != nil {
		return "", err
	}
	defer c.Close()
	info, err := c.Info(ctx, "memory").Result()
	if err != nil {
		return "", fmt.Errorf("INFO memory at %s: %w", s.addr, err)
	}
	for line := range strings.SplitSeq(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "mem_allocator:"); ok {
			return v, nil
		}
	}
	return "", fmt.Errorf("INFO memory at %s names no mem_allocator", s.addr)
}
