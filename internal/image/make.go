package image

import "context"

// Make builds the image of the dump at dumpPath, tagged tag, or, when dir is not empty,
// writes its build context into dir instead (replacing existing files with opts.Force); and
// returns what rdbgen image reports of it (Summary, whose Warnings are the Plan's).
func Make(ctx context.Context, dumpPath, tag, dir string, opts Options) (Summary, error) {
	if dir != "" {
		p, err := WriteContext(ctx, dumpPath, dir, opts.Force, opts)
		if err != nil {
			return Summary{}, err
		}
		s := newSummary(dumpPath, p)
		s.Context = dir
		return s, nil
	}
	res, err := Build(ctx, dumpPath, tag, opts)
	if err != nil {
		return Summary{}, err
	}
	s := newSummary(dumpPath, res.Plan)
	s.Tag, s.ID, s.Seconds = res.Tag, res.ID, res.Duration.Seconds()
	return s, nil
}
