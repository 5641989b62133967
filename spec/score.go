package spec

import (
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// parseScore reads a numeric generator's output.
func parseScore(b []byte) (float64, error) { return strconv.ParseFloat(string(b), 64) }

// constScore reads a literal score as YAML writes numbers (.inf, -.inf, 0x10, 0o17, 1_000)
// and returns it as the number that parseScore reads; NaN is refused, as Redis refuses it.
func (p *parser) constScore(c *constGen, n *yaml.Node, path string) generator {
	text := strings.ReplaceAll(string(c.text), "_", "")
	var v float64
	switch strings.ToLower(strings.TrimPrefix(text, "+")) {
	case ".inf":
		v = math.Inf(1)
	case "-.inf":
		v = math.Inf(-1)
	case ".nan":
		p.fail(n, path, "NaN is not a score (Redis refuses it)")
	default:
		if i, err := strconv.ParseInt(text, 0, 64); err == nil {
			v = float64(i)
		} else if f, err := strconv.ParseFloat(text, 64); err == nil && !math.IsNaN(f) {
			v = f
		} else {
			p.fail(n, path, "want a number as a score, got %q", c.text)
		}
	}
	return &constGen{text: strconv.AppendFloat(nil, v, 'g', -1, 64), num: true}
}
