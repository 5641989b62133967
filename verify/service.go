package verify

import (
	"maps"
	"slices"

	"github.com/rdbgen/rdbgen/rdb"
)

// checkService adds a Mismatch of StageFile for each rule of svc the file breaks: the
// name it was given (name), its RDB version and its databases, checked by the service's
// own rules, the ones the writer refuses a file for the service with.
func checkService(svc rdb.Service, name string, fr *FileReport, ms *mismatches) {
	broken := func(what string, err error) {
		if err != nil {
			ms.add(Mismatch{Stage: StageFile, What: what, Got: err.Error()})
		}
	}
	if name != "-" {
		broken("object name", svc.CheckName(name))
	}
	broken("rdb version", svc.CheckVersion(fr.RDBVersion))
	dbs := slices.Sorted(maps.Keys(fr.DBs))
	for _, db := range dbs[min(1, len(dbs)):] {
		broken("databases", svc.CheckDB(dbs[0], db))
	}
}
