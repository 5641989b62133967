package loader_test

import (
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/record"
)

// BenchmarkRestoreVsMass loads 200,000 hashes of 20 fields into one fresh server by the
// restore method and by mass, one of each per iteration, in alternating order, flushing
// between loads, and reports the median seconds of each and their ratio (mass/restore: how
// many times faster restore is), and the same of the CPU seconds the server spent (INFO
// cpu), which a busy machine disturbs less, and of this process's (the source and the
// loader). Run it with -benchtime 3x or more.
func BenchmarkRestoreVsMass(b *testing.B) {
	d := &dataset.Config{Count: 200000, Type: record.Hash, Members: dataset.Range{Min: 20, Max: 20}, KeyPrefix: "h:",
		Value: dataset.ValueRandom, ValueSize: 16, Seed: 1}
	inst := servertest.StartEmpty(b)
	times, cpu, own := map[loader.Method][]float64{}, map[loader.Method][]float64{}, map[loader.Method][]float64{}
	load := func(m loader.Method) {
		if err := inst.Client().FlushAll(b.Context()).Err(); err != nil {
			b.Fatal(err)
		}
		cpu0, own0 := serverCPU(b, inst.Client()), processCPU(b)
		start := time.Now()
		res, err := loader.Load(b.Context(), d, loader.Options{Addr: inst.Addr, Method: m})
		if err != nil {
			b.Fatalf("%s: %v", m, err)
		}
		if res.Keys != d.Count {
			b.Fatalf("%s: %d keys, want %d", m, res.Keys, d.Count)
		}
		times[m] = append(times[m], time.Since(start).Seconds())
		cpu[m] = append(cpu[m], serverCPU(b, inst.Client())-cpu0)
		own[m] = append(own[m], processCPU(b)-own0)
	}
	b.ResetTimer()
	for i := range b.N {
		order := []loader.Method{loader.Mass, loader.Restore}
		if i%2 == 1 {
			slices.Reverse(order)
		}
		for _, m := range order {
			load(m)
		}
	}
	b.StopTimer()
	mass, restore := median(times[loader.Mass]), median(times[loader.Restore])
	b.ReportMetric(mass, "mass-s")
	b.ReportMetric(restore, "restore-s")
	b.ReportMetric(mass/restore, "x-faster")
	massCPU, restoreCPU := median(cpu[loader.Mass]), median(cpu[loader.Restore])
	b.ReportMetric(massCPU, "mass-server-cpu-s")
	b.ReportMetric(restoreCPU, "restore-server-cpu-s")
	b.ReportMetric(massCPU/restoreCPU, "x-less-server-cpu")
	b.ReportMetric(median(own[loader.Mass]), "mass-client-cpu-s")
	b.ReportMetric(median(own[loader.Restore]), "restore-client-cpu-s")
}

// processCPU returns the CPU seconds, user and system, this process has spent: the
// loader's, the source's included.
func processCPU(b *testing.B) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// serverCPU returns the CPU seconds, user and system, the server has spent.
func serverCPU(b *testing.B, c *redis.Client) float64 {
	info, err := c.Info(b.Context(), "cpu").Result()
	if err != nil {
		b.Fatal(err)
	}
	var total float64
	for line := range strings.Lines(info) {
		for _, name := range []string{"used_cpu_sys:", "used_cpu_user:"} {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), name); ok {
				f, err := strconv.ParseFloat(v, 64)
				if err != nil {
					b.Fatalf("INFO cpu: %s: %v", line, err)
				}
				total += f
			}
		}
	}
	return total
}

// median returns the median of xs.
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
