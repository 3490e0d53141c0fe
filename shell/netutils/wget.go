package netutils

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// wget's exit statuses.
const (
	wgetGeneric = 1 // no network access, or another failure
	wgetUsage   = 2 // bad options
	wgetIO      = 3 // the output file could not be written
	wgetNetwork = 4 // the host refused or failed the request
	wgetServer  = 8 // the server answered with an error status
)

const wgetShort = "qO:U:ST:t:"

var wgetLong = []string{
	"quiet", "output-document=", "header=", "post-data=", "post-file=", "user-agent=",
	"server-response", "timeout=", "tries=", "no-check-certificate", "help",
}

const wgetHelp = `Usage: wget [OPTION]... [URL]...
  -q,  --quiet                 no output on stderr
  -O,  --output-document=FILE  write the body to FILE (- is standard output)
       --header=STRING         add a header ("Name: value")
       --post-data=STRING      POST STRING
       --post-file=FILE        POST the contents of FILE
  -U,  --user-agent=AGENT      User-Agent to send
  -S,  --server-response       print the response headers on stderr
  -T, -t, --timeout, --tries, --no-check-certificate: accepted; the host sets its own limits
`

// wget is a wget over a Fetcher, for single files: wget -qO- URL and wget
// -O FILE URL. It follows redirects (the host decides each hop); without
// -O it saves to the last segment of the URL's path (index.html when
// there is none), adding .1, .2 ... rather than overwriting a file, as
// wget does; its log on stderr is shorter than wget's.
func wget(env *command.Env, fetch Fetcher) int {
	opts, urls, err := command.Getopt(env.Args[1:], wgetShort, wgetLong, false)
	if err != nil {
		fmt.Fprintf(env.Stderr, "wget: %s\nUsage: wget [OPTION]... [URL]...\n", err.Error())
		return wgetUsage
	}
	var (
		quiet, server bool
		output        string
		hasOutput     bool
		headers       [][2]string
		body          []byte
		hasBody       bool
		agent         = "Wget/1.21.4"
	)
	for _, opt := range opts {
		switch opt.Name {
		case "q", "quiet":
			quiet = true
		case "O", "output-document":
			output, hasOutput = opt.Value, true
		case "header":
			name, value, found := strings.Cut(opt.Value, ":")
			if !found {
				fmt.Fprintf(env.Stderr, "wget: --header=%s: invalid header\n", opt.Value)
				return wgetUsage
			}
			headers = append(headers, [2]string{strings.TrimSpace(name), strings.TrimSpace(value)})
		case "post-data":
			body, hasBody = []byte(opt.Value), true
		case "post-file":
			b, err := env.ReadAll(opt.Value)
			if err != nil {
				if command.IsCanceled(err) {
					return command.StatusCanceled
				}
				fmt.Fprintf(env.Stderr, "wget: %s: %s\n", opt.Value, command.Strerror(err))
				return wgetIO
			}
			body, hasBody = b, true
		case "U", "user-agent":
			agent = opt.Value
		case "S", "server-response":
			server = true
		case "help":
			_, _ = io.WriteString(env.Stdout, wgetHelp)
			return 0
		}
	}
	if fetch == nil {
		fmt.Fprintf(env.Stderr, "wget: %s\n", notEnabled)
		return wgetGeneric
	}
	if len(urls) == 0 {
		fmt.Fprintf(env.Stderr, "wget: missing URL\nUsage: wget [OPTION]... [URL]...\n")
		return wgetGeneric
	}
	logf := func(format string, args ...any) {
		if !quiet {
			fmt.Fprintf(env.Stderr, format, args...)
		}
	}
	status := 0
	var doc io.WriteCloser // -O's file, one for every URL, as wget writes it
	defer func() {
		if doc != nil {
			doc.Close()
		}
	}()
	for _, u := range urls {
		if command.Err(env.Ctx) != nil {
			return command.StatusCanceled
		}
		req := abi.FetchRequest{URL: withScheme(u), Method: "GET", Redirect: "follow"}
		req.Headers = append(req.Headers, [2]string{"User-Agent", agent}, [2]string{"Accept", "*/*"})
		if hasBody {
			req.Method = "POST"
			req.Headers = append(req.Headers, [2]string{"Content-Type", "application/x-www-form-urlencoded"})
			req.SetBody(body)
		}
		req.Headers = replaceHeaders(req.Headers, headers)
		logf("--%s--  %s\n", env.Now().UTC().Format("2006-01-02 15:04:05"), req.URL)
		res, err := fetch(env.Ctx, req)
		if err != nil {
			var ce *CallError
			if !errors.As(err, &ce) {
				return stopped(env, err)
			}
			_, msg := callStatus(ce)
			logf("wget: %s\n", msg)
			status = wgetNetwork
			continue
		}
		logf("HTTP request sent, awaiting response... %s\n", strings.TrimSpace(strconv.Itoa(res.Status)+" "+res.StatusText))
		if server && !quiet {
			fmt.Fprintf(env.Stderr, "  %s\n", statusLine(res))
			for _, h := range res.Headers {
				fmt.Fprintf(env.Stderr, "  %s: %s\n", h[0], h[1])
			}
		}
		if res.Status >= 400 {
			logf("%s ERROR %d: %s.\n\n", env.Now().UTC().Format("2006-01-02 15:04:05"), res.Status, res.StatusText)
			status = wgetServer
			continue
		}
		b, err := responseBody(res)
		if err != nil {
			logf("wget: the host sent a body that is not base64\n")
			status = wgetNetwork
			continue
		}
		name := output
		var w io.Writer
		switch {
		case hasOutput && output == "-":
			w = env.Stdout
		case hasOutput:
			if doc == nil {
				f, err := env.Create(output, vfs.O_CREATE|vfs.O_TRUNC)
				if err != nil {
					fmt.Fprintf(env.Stderr, "wget: %s: %s\n", output, command.Strerror(err))
					return wgetIO
				}
				doc = f
			}
			w = doc
		default:
			name = remoteName(req.URL)
			if name == "" {
				name = "index.html"
			}
			name = freeName(env, name)
			f, err := env.Create(name, vfs.O_CREATE|vfs.O_TRUNC)
			if err != nil {
				fmt.Fprintf(env.Stderr, "wget: %s: %s\n", name, command.Strerror(err))
				return wgetIO
			}
			defer f.Close()
			w = f
		}
		if w != env.Stdout {
			logf("Saving to: '%s'\n\n", name)
		}
		if _, err := w.Write(b); err != nil {
			if w == env.Stdout {
				return env.WriteError(err)
			}
			fmt.Fprintf(env.Stderr, "wget: %s: %s\n", name, command.Strerror(err))
			return wgetIO
		}
		if w != env.Stdout {
			logf("'%s' saved [%d]\n\n", name, len(b))
		}
	}
	return status
}

// replaceHeaders returns own with the user's headers: each replaces own's
// header of the same name, in place, or comes after them.
func replaceHeaders(own, user [][2]string) [][2]string {
	out := own[:0:0]
	for _, h := range own {
		replaced := false
		for _, u := range user {
			if strings.EqualFold(u[0], h[0]) {
				replaced = true
			}
		}
		if !replaced {
			out = append(out, h)
		}
	}
	return append(out, user...)
}

// freeName returns name, or name.1, name.2 ... when name exists, as wget
// does rather than overwrite a file.
func freeName(env *command.Env, name string) string {
	try := name
	for i := 1; i < 1000; i++ {
		if _, err := env.FS.Stat(env.Abs(try)); errors.Is(err, fs.ErrNotExist) {
			return try
		}
		try = name + "." + strconv.Itoa(i)
	}
	return try
}
