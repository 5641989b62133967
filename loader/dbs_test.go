package loader

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestParseDBMap(t *testing.T) {
	tests := []struct {
		in   string
		want map[int]int
		err  string
	}{
		{"0=5", map[int]int{0: 5}, ""},
		{"0=5,3=6", map[int]int{0: 5, 3: 6}, ""},
		{" 0 = 5 , 3=3", map[int]int{0: 5, 3: 3}, ""},
		{"1=0,0=1", map[int]int{1: 0, 0: 1}, ""},
		{"2147483647=0", map[int]int{2147483647: 0}, ""},
		{"", nil, `"" has no '='`},
		{"0=5,", nil, `"" has no '='`},
		{"0", nil, `"0" has no '='`},
		{"a=1", nil, "is not two database numbers"},
		{"0=", nil, "is not two database numbers"},
		{"-1=0", nil, "out of range"},
		{"0=2147483648", nil, "out of range"},
		{"0=1,0=2", nil, "maps database 0 a second time"},
	}
	for _, tt := range tests {
		got, err := ParseDBMap(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: got %v, want an error containing %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || !maps.Equal(got, tt.want) {
			t.Errorf("%q: got %v, %v, want %v", tt.in, got, err, tt.want)
		}
	}
}

// FuzzParseDBMap: a map parsed and written again parses to the same map.
func FuzzParseDBMap(f *testing.F) {
	for _, s := range []string{"0=5", "0=5,3=6", " 1 = 2 ", "0=1,0=2", "=", ","} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseDBMap(s)
		if err != nil {
			return
		}
		again, err := ParseDBMap(DBMapString(m))
		if err != nil || !maps.Equal(m, again) {
			t.Fatalf("%q: %v, then %q: %v, %v", s, m, DBMapString(m), again, err)
		}
	})
}

// TestDBsPlace checks where --db and --db-map put each database of an input.
func TestDBsPlace(t *testing.T) {
	move := DBs{To: 5, Move: true}
	mapped := DBs{Map: map[int]int{0: 5, 3: 6}}
	tests := []struct {
		name string
		d    DBs
		dbs  []int // in the order they come
		want []int
		err  string
	}{
		{"nothing said", DBs{}, []int{0, 3}, []int{0, 3}, ""},
		{"move one", move, []int{3}, []int{5}, ""},
		{"move one, again", move, []int{3, 3}, []int{5, 5}, ""},
		{"move two", move, []int{3, 0}, nil, "the input holds databases 0 and 3, and --db 5 moves one: say where each goes with --db-map 0=5,3=N"},
		{"map", mapped, []int{3, 0}, []int{6, 5}, ""},
		{"map without a place", mapped, []int{0, 2}, nil, "the input's database 2 has no place in --db-map 0=5,3=6: add 2=N"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			place := tt.d.MapDB()
			if place == nil {
				place = func(db int) (int, error) { return db, nil }
			}
			var got []int
			for _, db := range tt.dbs {
				to, err := place(db)
				if err != nil {
					if tt.err == "" || err.Error() != tt.err {
						t.Fatalf("got %v, want %q", err, tt.err)
					}
					return
				}
				got = append(got, to)
			}
			if tt.err != "" || !slices.Equal(got, tt.want) {
				t.Fatalf("got %v, want %v (error %q)", got, tt.want, tt.err)
			}
		})
	}
}
