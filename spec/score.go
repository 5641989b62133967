package spec

import "strconv"

// parseScore reads a numeric generator's output.
func parseScore(b []byte) (float64, error) { return strconv.ParseFloat(string(b), 64) }
