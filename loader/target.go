package loader

import (
	"context"
	"errors"
	"fmt"

	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/spec"
)

// A Target is where rdbgen load sends its keys and how, as its flags name it: the server
// (--addr, or --url with --password), the method and its options, and the databases (--db,
// --db-map, the database of --url). [Target.Options] checks that they go together; its
// errors are worded in the flags' names.
type Target struct {
	Addr    string // --addr
	AddrSet bool   // --addr was given: it does not go with URL
	URL     string // --url, "" for none

	Password    string // --password (or $REDISCLI_AUTH)
	PasswordSet bool   // a password was given apart from the URL: the URL may hold none

	Method  Method // --method
	Batch   int    // --batch, 0 for the default; only Pipeline and Auto take one
	Replace bool   // --replace; only Restore takes it
	Cluster bool   // --cluster: every database is 0

	DB    int    // --db
	DBSet bool   // --db was given
	DBMap string // --db-map, "" for none

	// Dataset says that the input is the built-in dataset, which goes to one database
	// (DB, or the URL's), rather than a spec or an input file, which DBs may move.
	Dataset bool
}

// Options returns the options of t's server and method, and where the input's databases
// go: for the built-in dataset (t.Dataset), DBs moves its one database to To.
func (t Target) Options() (Options, DBs, error) {
	opts := Options{Addr: t.Addr, Password: t.Password, Method: t.Method, Batch: t.Batch, Replace: t.Replace, Cluster: t.Cluster}
	urlDB, err := t.setURL(&opts)
	if err != nil {
		return opts, DBs{}, err
	}
	if err := opts.Check(); err != nil {
		return opts, DBs{}, err
	}
	var dbs DBs
	if t.Dataset {
		dbs, err = t.datasetDB(urlDB)
	} else {
		dbs, err = t.inputDBs(urlDB)
	}
	return opts, dbs, err
}

// Check refuses options that do not go together, in the words of rdbgen load's flags:
// Replace without Restore, a Batch without Pipeline or Auto.
func (o Options) Check() error {
	if o.Replace && o.Method != Restore {
		return fmt.Errorf("--replace goes with --method restore (%s replaces keys always)", o.Method)
	}
	if o.Batch != 0 && o.Method != Pipeline && o.Method != Auto {
		return fmt.Errorf("--batch goes with --method pipeline or auto, not %s", o.Method)
	}
	return nil
}

// setURL sets the server of opts from t.URL, if any, and returns the database it names, -1
// when it names none.
func (t Target) setURL(opts *Options) (int, error) {
	if t.URL == "" {
		return -1, nil
	}
	if t.AddrSet {
		return -1, errors.New("--addr and --url both name the server: give one")
	}
	db, err := opts.SetURL(t.URL, t.PasswordSet)
	switch {
	case errors.Is(err, ErrTwoPasswords):
		return -1, errors.New("--password (or $REDISCLI_AUTH, or --password-file) and the password of --url: give one")
	case errors.Is(err, ErrUnixSocket):
		return -1, fmt.Errorf("--url %w", err)
	case err != nil:
		return -1, fmt.Errorf("--url: %w", err)
	}
	return db, nil
}

// datasetDB returns the database of the built-in dataset: the URL's (urlDB, -1 for none)
// unless --db says another, when they must agree.
func (t Target) datasetDB(urlDB int) (DBs, error) {
	switch {
	case t.DBMap != "":
		return DBs{}, errors.New("--db-map goes with --spec or an input file: the dataset's keys go to --db")
	case urlDB < 0:
	case !t.DBSet:
		t.DB = urlDB
	case urlDB != t.DB:
		return DBs{}, fmt.Errorf("--db %d disagrees with the database %d of --url: give one", t.DB, urlDB)
	}
	return DBs{To: t.DB, Move: true}, nil
}

// inputDBs returns where the databases of a spec or an input file go: --db, --db-map or
// the URL's database (urlDB, -1 for none), one of them at most.
func (t Target) inputDBs(urlDB int) (DBs, error) {
	var d DBs
	if t.DBSet {
		d.To, d.Move = t.DB, true
		if d.To < 0 || d.To > record.MaxDB {
			return d, fmt.Errorf("--db %d out of range (0 to %d)", d.To, record.MaxDB)
		}
	}
	if urlDB >= 0 {
		if d.Move && urlDB != d.To {
			return d, fmt.Errorf("--db %d disagrees with the database %d of --url: give one", d.To, urlDB)
		}
		if t.DBMap != "" {
			return d, errors.New("--url's database and --db-map both say where the keys go: give one")
		}
		d.To, d.Move = urlDB, true
	}
	if t.DBMap != "" {
		if d.Move {
			return d, errors.New("--db and --db-map both say where the keys go: give one")
		}
		m, err := ParseDBMap(t.DBMap)
		if err != nil {
			return d, fmt.Errorf("--db-map %q: %w", t.DBMap, err)
		}
		d.Map = m
	}
	if t.Cluster {
		for _, to := range d.Targets() {
			if to != 0 {
				return d, fmt.Errorf("database %d: a cluster has database 0 only", to)
			}
		}
	}
	return d, nil
}

// MoveSpec moves the families of s to the databases d says, before anything is loaded,
// and tells whether any family moved.
func (d DBs) MoveSpec(s *spec.Spec) (bool, error) {
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

// Interrupted returns err, the error of [Load], in words for a user when the load stopped
// because its context was cancelled: how many keys the server confirmed. Other errors
// come back as they are.
func Interrupted(err error) error {
	var le *Error
	if !errors.As(err, &le) || !errors.Is(err, context.Canceled) {
		return err
	}
	if le.Total > 0 {
		return fmt.Errorf("interrupted: %d of %d keys confirmed by %s", le.Confirmed, le.Total, le.where())
	}
	return fmt.Errorf("interrupted: %d keys confirmed by %s", le.Confirmed, le.where())
}
