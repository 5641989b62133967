package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/export"
	"github.com/rdbgen/rdbgen/internal/cliflags"
	"github.com/rdbgen/rdbgen/live"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// completionScripts are the scripts of `rdbgen completion SHELL`. Each asks rdbgen itself what
// may come next (cliflags.CompletionFlag appended to the words typed so far), so that they
// never fall behind the commands and flags; where rdbgen offers nothing (a file argument, -o),
// the shell completes file names.
var completionScripts = map[string]string{
	"bash": `# bash completion for rdbgen: source <(rdbgen completion bash)
_rdbgen_complete() {
	local cur=${COMP_WORDS[COMP_CWORD]}
	local -a words=("${COMP_WORDS[@]:0:COMP_CWORD}")
	[[ $cur == -* ]] && words+=("$cur")
	local IFS=$'\n'
	COMPREPLY=($(compgen -W "$("${words[@]}" ` + cliflags.CompletionFlag + ` 2>/dev/null)" -- "$cur"))
	return 0
}
complete -o default -F _rdbgen_complete rdbgen
`,
	"zsh": `#compdef rdbgen
# zsh completion for rdbgen: source <(rdbgen completion zsh), after compinit
_rdbgen() {
	local cur=${words[CURRENT]}
	local -a request opts
	request=("${(@)words[1,CURRENT-1]}")
	[[ $cur == -* ]] && request+=("$cur")
	opts=("${(@f)$("${(@)request}" ` + cliflags.CompletionFlag + ` 2>/dev/null)}")
	if [[ -n ${opts[1]} ]]; then
		compadd -- "${(@)opts}"
	else
		_files
	fi
}
compdef _rdbgen rdbgen
`,
	"fish": `# fish completion for rdbgen: rdbgen completion fish | source
function __rdbgen_complete
	set -l request (commandline -opc)
	set -l cur (commandline -ct)
	if string match -q -- '-*' $cur
		set -a request $cur
	end
	set -l words ($request ` + cliflags.CompletionFlag + ` 2>/dev/null)
	if set -q words[1]
		printf '%s\n' $words
	else
		__fish_complete_path $cur
	end
end
complete -c rdbgen -f -a '(__rdbgen_complete)'
`,
}

func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script of bash, zsh or fish",
		UsageText: "source <(rdbgen completion bash)\nsource <(rdbgen completion zsh)\nrdbgen completion fish | source",
		Action: func(c *cli.Context) error {
			shell := c.Args().First()
			script, ok := completionScripts[shell]
			if !ok || c.NArg() != 1 {
				return fmt.Errorf("completion takes one shell, bash, zsh or fish, got %q (rdbgen completion bash)", c.Args().Slice())
			}
			_, err := io.WriteString(c.App.Writer, script)
			return err
		},
	}
}

// enableCompletion makes app and its commands answer cliflags.CompletionFlag, offering the
// values of their enumerated flags (flagValues).
func enableCompletion(app *cli.App) {
	app.EnableBashCompletion = true
	app.BashComplete = cliflags.Complete(flagValues(""))
	for _, c := range app.Commands {
		c.BashComplete = cliflags.Complete(flagValues(c.Name))
		for _, sub := range c.Subcommands {
			sub.BashComplete = cliflags.Complete(flagValues(c.Name))
		}
	}
}

// flagValues returns the values completion offers after the enumerated flags of the command
// named command ("" for rdbgen itself, whose flags are generate's), by flag name.
func flagValues(command string) map[string][]string {
	types := asStrings(record.Types) // --type of the filters, which has module
	if command == "" || command == "generate" {
		types = slices.DeleteFunc(types, func(t string) bool { return t == string(record.Module) })
	}
	format := []string{"rdb", "resp"}
	if command == "export" {
		format = asStrings([]export.Format{export.FormatJSON, export.FormatJSONL, export.FormatCSV})
	}
	return map[string][]string{
		"target":       rdb.TargetNames(),
		"method":       asStrings(loader.Methods()),
		"format":       format,
		"type":         types,
		"value":        asStrings([]dataset.ValueMode{dataset.ValueSame, dataset.ValueRandom}),
		"on-duplicate": asStrings([]record.OnDuplicate{record.DupError, record.DupFirst, record.DupLast}),
		"via":          asStrings([]live.Via{live.Sync, live.Scan}),
		"expiry":       asStrings([]resp.Expiry{resp.ExpiryAbsolute, resp.ExpiryRelative}),
	}
}

// asStrings returns the values of a string type as strings.
func asStrings[S ~string](vs []S) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}
