package rdb

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// A Service is a managed service that seeds a database from a dump in object storage, a
// target of its own (Targets holds a row for each): the RDB version it loads is its target's,
// and it has rules of its own for the file, each from the service's documentation (Doc).
type Service struct {
	// Target is the target's name, as given to --target.
	Target string
	// Name names the service in messages.
	Name string
	// OneDB: a file with keys in more than one database fails to restore (ElastiCache in
	// cluster mode).
	OneDB bool
	// NoComma: the object's name may not hold a comma (ElastiCache takes a list of ARNs).
	NoComma bool
	// Gzip: the service takes a gzip-compressed file (.rdb.gz).
	Gzip bool
	// RDBExt: the object's name must end in .rdb (gcloud redis instances import).
	RDBExt bool
	// Doc is the documentation page the rules come from.
	Doc string
}

// ErrServiceRule is wrapped by the errors of a file that breaks a rule of its service.
var ErrServiceRule = errors.New("breaks a rule of the service")

const (
	elastiCacheDoc = "https://docs.aws.amazon.com/AmazonElastiCache/latest/dg/backups-seeding-redis.html"
	memorystoreDoc = "https://cloud.google.com/memorystore/docs/redis/import-export-overview"
	redisCloudDoc  = "https://redis.io/docs/latest/operate/rs/references/rest-api/objects/bdb/dataset_import_sources"
)

// services are the managed services, each the row of its target in targets.
var services = []Service{
	{Target: "elasticache-redis-7.1", Name: "Amazon ElastiCache", OneDB: true, NoComma: true, Doc: elastiCacheDoc},
	{Target: "elasticache-valkey-7.2", Name: "Amazon ElastiCache", OneDB: true, NoComma: true, Doc: elastiCacheDoc},
	{Target: "elasticache-valkey-8.0", Name: "Amazon ElastiCache", OneDB: true, NoComma: true, Doc: elastiCacheDoc},
	{Target: "memorystore-redis-7.2", Name: "Google Memorystore for Redis", RDBExt: true, Doc: memorystoreDoc},
	{Target: "redis-cloud", Name: "Redis Cloud", Gzip: true, Doc: redisCloudDoc},
}

// LookupService returns the service of the target name, if it is one.
func LookupService(target string) (Service, bool) {
	for _, s := range services {
		if strings.EqualFold(s.Target, target) {
			return s, true
		}
	}
	return Service{}, false
}

// ServiceTargets returns the targets of the managed services, in the order of Targets.
func ServiceTargets() []string {
	names := make([]string, len(services))
	for i, s := range services {
		names[i] = s.Target
	}
	return names
}

// CheckName checks the name of the file or object a dump for the service is written to
// (a path or a URL): its errors wrap ErrServiceRule, name the rule, its source and the way out.
func (s Service) CheckName(name string) error {
	base := path.Base(strings.SplitN(name, "?", 2)[0])
	switch {
	case s.NoComma && strings.Contains(name, ","):
		return s.broken("the object's name may not hold a comma (%s takes a comma-separated list of ARNs): rename %s", s.Name, name)
	case strings.HasSuffix(base, ".gz") && !s.Gzip:
		return s.broken("%s takes no gzip-compressed file: write %s without .gz", s.Name, name)
	case s.RDBExt && !strings.HasSuffix(base, ".rdb"):
		return s.broken("%s imports an object whose name ends in .rdb: rename %s", s.Name, name)
	}
	return nil
}

// CheckDB checks, as a writer opens db, that a file for the service may hold it beside
// the database first, which it opened already: its error wraps ErrServiceRule.
func (s Service) CheckDB(first, db int) error {
	if s.OneDB && db != first {
		return s.broken("keys in db %d and db %d: a file with keys in more than one database fails to restore into %s in cluster mode; keep one database (convert --db %d) or write for another --target",
			first, db, s.Name, first)
	}
	return nil
}

// CheckVersion checks that the service loads a file of RDB version: its error wraps
// ErrServiceRule and names the way out, a conversion for the service's target.
func (s Service) CheckVersion(version int) error {
	t, err := LookupTarget(s.Target)
	if err != nil {
		return err
	}
	if version > t.RDBVersion {
		return s.broken("the file is RDB %d and %s loads RDB %d or older: rewrite it for the service (convert --target %s)", version, s.Name, t.RDBVersion, s.Target)
	}
	return nil
}

// broken returns the error of a broken rule, naming the target and the rule's source.
func (s Service) broken(format string, args ...any) error {
	return fmt.Errorf("--target %s: %w: %s (%s)", s.Target, ErrServiceRule, fmt.Sprintf(format, args...), s.Doc)
}
