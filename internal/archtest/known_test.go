package archtest

// The steps of issue 35 that remove the known violations.
const (
	stepVocab        = "the format's vocabulary as a leaf: CheckPayload, targets and features move to rdb"
	stepRecords      = "the writer speaks records: rdbsink goes away"
	stepJob          = "a job layer: opening inputs, writing outputs and the manifest move to the job; the stage keeps the records"
	stepOutput       = "one output path: export becomes the JSON/CSV formats of output, and the job puts the filter in front"
	stepSummary      = "a job layer: the summaries move to the job, which renders the results packages return"
	stepCoordinators = "internal/ holds leaf utilities only: summaries, image building and bench move to the job layer"
	stepTestkit      = "internal/ holds leaf utilities only: the test kits move out of internal/, and non-test code stops importing them"
	stepRouting      = "a job layer: cluster routing becomes a stage below both the live source and the shard sink"
	stepYAML         = "one home per idea: one set of YAML helpers, below both rewrite and spec"
	stepEstimator    = "one home per idea: one estimator, below both spec and memory"
)

// knownViolations are the imports that break a rule of docs/architecture.md today, each with
// the step of issue 35 that removes it. The list only shrinks: TestLayering fails on a
// violation not listed here and on a listed one that is gone.
var knownViolations = map[string]string{
	"convert -> input":                   stepJob,
	"convert -> manifest":                stepJob,
	"convert -> output":                  stepJob,
	"export -> filter":                   stepOutput,
	"export -> internal/summary":         stepSummary,
	"inspect -> internal/summary":        stepSummary,
	"internal/bench -> dataset":          stepCoordinators,
	"internal/bench -> loader":           stepCoordinators,
	"internal/bench -> output":           stepCoordinators,
	"internal/bench -> resp":             stepCoordinators,
	"internal/bench -> server":           stepCoordinators,
	"internal/image -> manifest":         stepCoordinators,
	"internal/image -> rdb/decoder":      stepCoordinators,
	"internal/image -> rebase":           stepCoordinators,
	"internal/image -> verify":           stepCoordinators,
	"internal/localcluster -> cluster":   stepTestkit,
	"internal/localcluster -> server":    stepTestkit,
	"internal/readback -> dataset":       stepTestkit,
	"internal/servertest -> cluster":     stepTestkit,
	"internal/servertest -> dataset":     stepTestkit,
	"internal/servertest -> manifest":    stepTestkit,
	"internal/servertest -> output":      stepTestkit,
	"internal/servertest -> rdb/encoder": stepTestkit,
	"internal/servertest -> rdbsink":     stepTestkit,
	"internal/servertest -> server":      stepTestkit,
	"internal/servertest -> spec":        stepTestkit,
	"internal/servertest -> verify":      stepTestkit,
	"internal/summary -> cluster":        stepCoordinators,
	"internal/summary -> convert":        stepCoordinators,
	"internal/summary -> importer":       stepCoordinators,
	"internal/summary -> input":          stepCoordinators,
	"internal/summary -> loader":         stepCoordinators,
	"internal/summary -> manifest":       stepCoordinators,
	"internal/summary -> memory":         stepCoordinators,
	"internal/summary -> output":         stepCoordinators,
	"internal/summary -> rdb/decoder":    stepCoordinators,
	"internal/summary -> rdb/encoder":    stepCoordinators,
	"internal/summary -> resp":           stepCoordinators,
	"internal/summary -> server":         stepCoordinators,
	"internal/summary -> spec":           stepCoordinators,
	"live -> cluster":                    stepRouting,
	"loader -> convert":                  stepJob,
	"loader -> filter":                   stepJob,
	"loader -> input":                    stepJob,
	"loader -> manifest":                 stepJob,
	"loader -> rewrite":                  stepJob,
	"loader -> spec":                     stepJob,
	"rdbsink -> internal/version":        stepRecords,
	"rdbsink -> rdb/encoder":             stepRecords,
	"rebase -> input":                    stepJob,
	"rebase -> manifest":                 stepJob,
	"rebase -> output":                   stepJob,
	"rewrite -> spec":                    stepYAML,
	"spec -> memory":                     stepEstimator,
	"verify -> input":                    stepJob,
	"verify -> internal/localcluster":    stepTestkit,
	"verify -> internal/summary":         stepSummary,
	"verify -> manifest":                 stepJob,
	"verify -> spec":                     stepJob,
}
