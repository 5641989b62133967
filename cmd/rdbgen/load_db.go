package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/spec"
)

// dbMapFlag is load's --db-map.
func dbMapFlag() cli.Flag {
	return &cli.StringFlag{Name: "db-map", Usage: "with an input of several databases: where each goes, FROM=TO,… (e.g. 0=5,3=6); every database of the input needs one", Category: "Input"}
}

// loadDBsFromFlags reads --db, --db-map and the database of --url (urlDB, -1 when the URL
// names none) for an input that is not the built-in dataset.
func loadDBsFromFlags(c *cli.Context, urlDB int) (loader.DBs, error) {
	var d loader.DBs
	if c.IsSet("db") {
		d.To, d.Move = c.Int("db"), true
		if d.To < 0 || d.To > record.MaxDB {
			return d, fmt.Errorf("--db %d out of range (0 to %d)", d.To, record.MaxDB)
		}
	}
	if urlDB >= 0 {
		if d.Move && urlDB != d.To {
			return d, fmt.Errorf("--db %d disagrees with the database %d of --url: give one", d.To, urlDB)
		}
		if c.IsSet("db-map") {
			return d, fmt.Errorf("--url's database and --db-map both say where the keys go: give one")
		}
		d.To, d.Move = urlDB, true
	}
	if c.IsSet("db-map") {
		if d.Move {
			return d, fmt.Errorf("--db and --db-map both say where the keys go: give one")
		}
		m, err := loader.ParseDBMap(c.String("db-map"))
		if err != nil {
			return d, fmt.Errorf("--db-map %q: %w", c.String("db-map"), err)
		}
		d.Map = m
	}
	if c.Bool("cluster") {
		for _, to := range d.Targets() {
			if to != 0 {
				return d, fmt.Errorf("database %d: a cluster has database 0 only", to)
			}
		}
	}
	return d, nil
}

// moveSpec moves the families of s to the databases d says, before anything is loaded,
// and tells whether any family moved.
func moveSpec(d loader.DBs, s *spec.Spec) (bool, error) {
	dbs, _ := s.DBs()
	to, err := d.Moves(dbs)
	if err != nil {
		return false, fmt.Errorf("--spec: %w", err)
	}
	moved := false
	for _, f := range s.Families {
		moved = moved || f.DB != to[f.DB]
		f.DB = to[f.DB]
	}
	return moved, nil
}
