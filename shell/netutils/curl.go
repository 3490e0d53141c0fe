package netutils

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/internal/escape"
	"github.com/cordonhq/cordon/vfs"
)

// userAgent is the User-Agent curl sends unless told otherwise (-A, -H).
const userAgent = "curl/8.5.0"

// curl's exit statuses.
const (
	curlUsage       = 2  // bad options, no URL, or no network access
	curlBadURL      = 3  // the host refused the request as malformed
	curlNoConnect   = 7  // the request was not made or failed: denied, or the host failed it
	curlHTTPError   = 22 // -f and a status of 400 or more
	curlWriteError  = 23 // the output file could not be written
	curlRecvError   = 56 // the response could not be read
	curlTooLarge    = 63 // the request or the response is over the host's limit
	curlUnsupported = 1  // a protocol curl (here: the host) does not speak
)

const curlShort = "sSfLX:H:d:o:Ow:iIu:A:Gvkm:e:D:"

var curlLong = []string{
	"silent", "show-error", "fail", "fail-with-body", "location", "request=", "header=",
	"data=", "data-ascii=", "data-raw=", "data-binary=", "data-urlencode=", "json=",
	"output=", "remote-name", "write-out=", "include", "head", "user=", "user-agent=",
	"get", "max-time=", "connect-timeout=", "max-redirs=", "insecure", "compressed",
	"verbose", "url=", "referer=", "no-progress-meter", "help", "dump-header=",
}

const curlHelp = `Usage: curl [options...] <url>...
 -d, --data <data>          HTTP POST data (@FILE reads a file, newlines removed)
 -D, --dump-header <file>   Write the response headers to a file (- is stdout)
     --data-binary <data>   HTTP POST data, @FILE read as it is
     --data-raw <data>      HTTP POST data, no @FILE
     --data-urlencode <d>   HTTP POST data, URL-encoded
 -f, --fail                 Fail with status 22 and no output on HTTP errors
     --fail-with-body       Fail on HTTP errors, with the body
 -G, --get                  Put the -d data in the URL's query
 -H, --header <header>      Add a header ("Name: value"; "Name:" removes it)
 -I, --head                 HEAD request, print the headers
 -i, --include              Print the response headers before the body
     --json <data>          POST JSON data (Content-Type and Accept JSON)
 -L, --location             Follow redirects
 -o, --output <file>        Write the body to a file
 -O, --remote-name          Write the body to a file named as the URL's path
 -s, --silent               No error messages
 -S, --show-error           Error messages even with -s
 -u, --user <user:password> Basic authentication
 -A, --user-agent <name>    User-Agent to send
 -e, --referer <URL>        Referer to send
 -v, --verbose              Print the request and response headers on stderr
 -w, --write-out <format>   Print %{http_code}, %{url_effective}, %{content_type},
                            %{size_download}, %{redirect_url}, %{method} after
 -X, --request <method>     Request method
 -m, --max-time, --connect-timeout, --max-redirs, -k, --compressed: accepted;
                            the host sets its own limits
`

// curlOpts are the options of one curl command.
type curlOpts struct {
	silent, showError, fail, failBody, follow, include, head, get, verbose bool
	method, user, writeOut, dumpHeader                                     string
	headers                                                                []curlHeader
	data                                                                   [][]byte // the -d, --data-binary ... parts, in order
	json                                                                   bool
	outputs                                                                []string // -o FILE, or "" for -O, in order
	urls                                                                   []string
	warnings                                                               []string // printed unless -s, once the options are read
	dumped                                                                 bool     // -D's file was written once: later transfers append
}

// curl is a curl over a Fetcher. It differs from curl 8: it speaks HTTP(S)
// through the host only (the host decides which requests are made and how,
// and sets the time and size limits: --max-time and the like are accepted
// and ignored); a URL without a scheme is http; -O applies to the URL it
// pairs with, in order, as -o does; -i, -I and -D show the final
// response's headers only, since the host follows the redirects; there is
// no progress meter. Its exit statuses
// are curl's where curl has one for the case; docs/egress.md maps the
// host's refusals to them.
func curl(env *command.Env, fetch Fetcher) int {
	o, status, ok := parseCurl(env)
	if !ok {
		return status
	}
	if fetch == nil {
		fmt.Fprintf(env.Stderr, "curl: %s\n", notEnabled)
		return curlUsage
	}
	if len(o.urls) == 0 {
		return o.report(env, curlUsage, "no URL specified")
	}
	status = 0
	for i, u := range o.urls {
		out := "-"
		if i < len(o.outputs) {
			out = o.outputs[i]
			if out == "" {
				out = remoteName(withScheme(u))
				if out == "" {
					return o.report(env, curlWriteError, "Remote file name has no length")
				}
			}
		}
		if s := o.transfer(env, fetch, u, out); s != 0 {
			status = s
		}
		if status == command.StatusCanceled {
			break
		}
	}
	return status
}

// parseCurl reads curl's options.
func parseCurl(env *command.Env) (o curlOpts, status int, ok bool) {
	opts, operands, err := command.Getopt(env.Args[1:], curlShort, curlLong, false)
	if err != nil {
		fmt.Fprintf(env.Stderr, "curl: %s\ncurl: try 'curl --help' for more information\n", err.Error())
		return o, curlUsage, false
	}
	o.urls = operands
	for _, opt := range opts {
		switch opt.Name {
		case "s", "silent":
			o.silent = true
		case "S", "show-error":
			o.showError = true
		case "f", "fail":
			o.fail = true
		case "fail-with-body":
			o.failBody = true
		case "L", "location":
			o.follow = true
		case "X", "request":
			o.method = opt.Value
		case "H", "header":
			name, value, found := strings.Cut(opt.Value, ":")
			switch {
			case found:
				value = strings.TrimSpace(value)
				o.headers = append(o.headers, curlHeader{strings.TrimSpace(name), value, value == ""})
			case strings.HasSuffix(opt.Value, ";"):
				// "Name;" sends the header with an empty value.
				o.headers = append(o.headers, curlHeader{strings.TrimSpace(strings.TrimSuffix(opt.Value, ";")), "", false})
			default:
				fmt.Fprintf(env.Stderr, "curl: header %q has no colon\n", opt.Value)
				return o, curlUsage, false
			}
		case "d", "data", "data-ascii", "data-binary", "data-raw", "data-urlencode", "json":
			b, err := curlData(env, opt)
			if err != nil {
				if command.IsCanceled(err) {
					return o, command.StatusCanceled, false
				}
				// curl warns and sends what it could read: nothing.
				o.warnings = append(o.warnings, fmt.Sprintf("Warning: Couldn't read data from file \"%s\", this makes an empty POST.", strings.TrimPrefix(opt.Value, "@")))
				b = nil
			}
			o.data = append(o.data, b)
			if opt.Name == "json" {
				o.json = true
			}
		case "o", "output":
			o.outputs = append(o.outputs, opt.Value)
		case "O", "remote-name":
			o.outputs = append(o.outputs, "")
		case "w", "write-out":
			o.writeOut = opt.Value
		case "i", "include":
			o.include = true
		case "I", "head":
			o.head = true
		case "u", "user":
			if !strings.Contains(opt.Value, ":") {
				fmt.Fprintf(env.Stderr, "curl: -u %s: give the password too (-u user:password); there is no prompt\n", opt.Value)
				return o, curlUsage, false
			}
			o.user = opt.Value
		case "A", "user-agent":
			o.headers = append(o.headers, curlHeader{"User-Agent", opt.Value, opt.Value == ""})
		case "e", "referer":
			o.headers = append(o.headers, curlHeader{"Referer", opt.Value, opt.Value == ""})
		case "G", "get":
			o.get = true
		case "v", "verbose":
			o.verbose = true
		case "url":
			o.urls = append(o.urls, opt.Value)
		case "D", "dump-header":
			o.dumpHeader = opt.Value
		case "help":
			_, _ = io.WriteString(env.Stdout, curlHelp)
			return o, 0, false
		case "m", "max-time", "connect-timeout", "max-redirs", "k", "insecure", "compressed", "no-progress-meter":
			// The host sets its own limits and makes the connection.
		}
	}
	if !o.silent {
		for _, w := range o.warnings {
			fmt.Fprintln(env.Stderr, w)
		}
	}
	return o, 0, true
}

// curlData returns the bytes of one data option: @FILE reads FILE (- is
// standard input), with CR and LF removed for -d as curl does.
func curlData(env *command.Env, opt command.Opt) ([]byte, error) {
	v := opt.Value
	if opt.Name == "data-urlencode" {
		// "name=content", "=content" or "content": the content encoded.
		if name, content, found := strings.Cut(v, "="); found {
			if name == "" {
				return []byte(url.QueryEscape(content)), nil
			}
			return []byte(name + "=" + url.QueryEscape(content)), nil
		}
		return []byte(url.QueryEscape(v)), nil
	}
	if opt.Name == "data-raw" || !strings.HasPrefix(v, "@") {
		return []byte(v), nil
	}
	b, err := env.ReadAll(v[1:])
	if err != nil {
		return nil, err // the caller warns as curl does, or stops on a cancel
	}
	if opt.Name == "d" || opt.Name == "data" || opt.Name == "data-ascii" {
		b = bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r"), nil), []byte("\n"), nil)
	}
	return b, nil
}

// report reports an error as curl does, "curl: (N) message" unless -s
// without -S, and returns status.
func (o *curlOpts) report(env *command.Env, status int, msg string) int {
	if !o.silent || o.showError {
		fmt.Fprintf(env.Stderr, "curl: (%d) %s\n", status, msg)
	}
	return status
}

// request builds the FetchRequest for u.
func (o *curlOpts) request(u string) abi.FetchRequest {
	req := abi.FetchRequest{URL: withScheme(u), Redirect: "manual"}
	if o.follow {
		req.Redirect = "follow"
	}
	var body []byte
	hasBody := len(o.data) > 0 // even when empty: curl still sends its Content-Type
	if len(o.data) > 0 {
		sep := []byte("&")
		if o.json {
			sep = nil // curl concatenates --json parts
		}
		body = bytes.Join(o.data, sep)
	}
	method := ""
	switch {
	case o.head:
		method = "HEAD"
	case o.get:
		method = "GET"
		if len(body) > 0 {
			q := string(body)
			if strings.Contains(strings.SplitN(req.URL, "#", 2)[0], "?") {
				req.URL = insertQuery(req.URL, "&"+q)
			} else {
				req.URL = insertQuery(req.URL, "?"+q)
			}
			body = nil
		}
		hasBody = false
	case len(o.data) > 0:
		method = "POST"
	}
	if o.method != "" {
		method = o.method
	}
	if method == "" {
		method = "GET"
	}
	req.Method = method

	// curl's own headers first, then the user's, as curl sends them; a
	// user header of the same name replaces curl's, and "Name:" with no
	// value removes it.
	own := [][2]string{{"User-Agent", userAgent}}
	if o.user != "" {
		own = append(own, [2]string{"Authorization", "Basic " + base64.StdEncoding.EncodeToString([]byte(o.user))})
	}
	if o.json {
		own = append(own, [2]string{"Accept", "application/json"})
	} else {
		own = append(own, [2]string{"Accept", "*/*"})
	}
	if hasBody {
		ct := "application/x-www-form-urlencoded"
		if o.json {
			ct = "application/json"
		}
		own = append(own, [2]string{"Content-Type", ct})
	}
	for _, h := range own {
		if !o.userHeader(h[0]) {
			req.Headers = append(req.Headers, h)
		}
	}
	for _, h := range o.headers {
		if !h.remove {
			req.Headers = append(req.Headers, [2]string{h.name, h.value})
		}
	}
	if body != nil {
		req.SetBody(body)
	}
	return req
}

// userHeader reports whether the user gave a header called name.
func (o *curlOpts) userHeader(name string) bool {
	for _, h := range o.headers {
		if strings.EqualFold(h.name, name) {
			return true
		}
	}
	return false
}

// curlHeader is a header of -H, -A or -e: remove is "Name:" with no value,
// which removes curl's own header of that name rather than sending one.
type curlHeader struct {
	name, value string
	remove      bool
}

// insertQuery appends q to the query of u, before any fragment.
func insertQuery(u, q string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i] + q + u[i:]
	}
	return u + q
}

// transfer makes the request for one URL and writes its result to out
// ("-" is standard output).
func (o *curlOpts) transfer(env *command.Env, fetch Fetcher, u, out string) int {
	if err := command.Err(env.Ctx); err != nil {
		return command.StatusCanceled
	}
	req := o.request(u)
	if o.verbose {
		fmt.Fprintf(env.Stderr, "> %s %s\n", req.Method, req.URL)
		for _, h := range req.Headers {
			fmt.Fprintf(env.Stderr, "> %s: %s\n", h[0], h[1])
		}
		fmt.Fprintf(env.Stderr, ">\n")
	}
	res, err := fetch(env.Ctx, req)
	if err != nil {
		return o.callFailed(env, req, err)
	}
	if o.verbose {
		fmt.Fprintf(env.Stderr, "< %s\n", statusLine(res))
		for _, h := range res.Headers {
			fmt.Fprintf(env.Stderr, "< %s: %s\n", h[0], h[1])
		}
		fmt.Fprintf(env.Stderr, "<\n")
	}
	body, err := responseBody(res)
	if err != nil {
		return o.report(env, curlRecvError, "Failure when receiving data from the peer: the host sent a body that is not base64")
	}
	httpError := res.Status >= 400 && (o.fail || o.failBody)
	if httpError && !o.failBody {
		// curl still writes -w's variables out, then fails.
		if o.writeOut != "" {
			if _, err := io.WriteString(env.Stdout, writeOut(env, o.writeOut, req, res, 0)); err != nil {
				return env.WriteError(err)
			}
		}
		return o.report(env, curlHTTPError, fmt.Sprintf("The requested URL returned error: %d", res.Status))
	}

	var head bytes.Buffer
	head.WriteString(statusLine(res))
	head.WriteString("\r\n")
	for _, h := range res.Headers {
		// As the host got them: over HTTP/1.x, the server's lines in
		// its order and case, as curl prints them.
		head.WriteString(h[0] + ": " + h[1] + "\r\n")
	}
	head.WriteString("\r\n")
	if o.dumpHeader != "" {
		if status := o.dump(env, head.Bytes()); status != 0 {
			return status
		}
	}
	var buf bytes.Buffer
	if o.include || o.head {
		buf.Write(head.Bytes())
	}
	if !o.head {
		buf.Write(body)
	}
	if status := o.write(env, out, buf.Bytes()); status != 0 {
		return status
	}
	if o.writeOut != "" {
		if _, err := io.WriteString(env.Stdout, writeOut(env, o.writeOut, req, res, len(body))); err != nil {
			return env.WriteError(err)
		}
	}
	if httpError {
		return o.report(env, curlHTTPError, fmt.Sprintf("The requested URL returned error: %d", res.Status))
	}
	return 0
}

// write writes b to out ("-" is standard output).
func (o *curlOpts) write(env *command.Env, out string, b []byte) int {
	if out == "-" {
		if _, err := env.Stdout.Write(b); err != nil {
			return env.WriteError(err)
		}
		return 0
	}
	f, err := env.Create(out, vfs.O_CREATE|vfs.O_TRUNC)
	if err != nil {
		return o.report(env, curlWriteError, fmt.Sprintf("Failure writing output to destination: %s: %s", out, command.Strerror(err)))
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return o.report(env, curlWriteError, fmt.Sprintf("Failure writing output to destination: %s: %s", out, command.Strerror(err)))
	}
	return 0
}

// dump writes a response's status line and headers to -D's file: the
// first transfer makes (or empties) it, later ones append, as curl keeps
// the file open for all of them. "-" is standard output.
func (o *curlOpts) dump(env *command.Env, head []byte) int {
	if o.dumpHeader == "-" {
		if _, err := env.Stdout.Write(head); err != nil {
			return env.WriteError(err)
		}
		return 0
	}
	flag := vfs.O_CREATE | vfs.O_TRUNC
	if o.dumped {
		flag = vfs.O_CREATE | vfs.O_APPEND
	}
	f, err := env.Create(o.dumpHeader, flag)
	if err == nil {
		_, err = f.Write(head)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return o.report(env, curlWriteError, fmt.Sprintf("Failed to open %s", o.dumpHeader))
	}
	o.dumped = true
	return 0
}

// callFailed reports a request the host refused or failed.
func (o *curlOpts) callFailed(env *command.Env, req abi.FetchRequest, err error) int {
	var ce *CallError
	if !errors.As(err, &ce) {
		return stopped(env, err)
	}
	if ce.Kind == abi.ToolInvalid {
		// A scheme the host does not speak: curl's own words for a
		// protocol it lacks. (The host decides; this only names it.)
		if scheme, _, found := strings.Cut(req.URL, "://"); found && !strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") {
			return o.report(env, curlUnsupported, fmt.Sprintf("Protocol \"%s\" not supported or disabled in libcurl", scheme))
		}
	}
	status, msg := callStatus(ce)
	return o.report(env, status, msg)
}

// stopped reports an error of a Fetcher that is not a CallError: the
// execution is being stopped. It returns StatusCanceled, with a message
// unless the command's context says so already.
func stopped(env *command.Env, err error) int {
	if !command.IsCanceled(err) && !env.Canceled() && !errors.Is(err, context.Canceled) {
		env.Errorf(command.StatusCanceled, "%v", err)
	}
	return command.StatusCanceled
}

// callStatus maps a refused or failed request to curl's exit status and
// message (docs/egress.md lists the mapping).
func callStatus(ce *CallError) (int, string) {
	switch ce.Kind {
	case abi.ToolDenied:
		if len(ce.Reasons) > 0 {
			return curlNoConnect, "request denied by policy: " + strings.Join(ce.Reasons, "; ")
		}
		return curlNoConnect, "request denied by policy: " + ce.Message
	case abi.ToolInvalid:
		return curlBadURL, "request refused by the host: " + ce.Message
	case abi.ToolTooLarge:
		return curlTooLarge, ce.Message
	}
	return curlNoConnect, ce.Message
}

// statusLine is the status line -i and -I print.
func statusLine(res abi.FetchResponse) string {
	switch res.Proto {
	case "HTTP/2.0":
		// HTTP/2 has no reason phrase; curl names the version "HTTP/2".
		return "HTTP/2 " + strconv.Itoa(res.Status) + " "
	case "HTTP/1.0":
	default:
		res.Proto = "HTTP/1.1"
	}
	s := res.Proto + " " + strconv.Itoa(res.Status)
	if res.StatusText != "" {
		s += " " + res.StatusText
	}
	return s
}

// writeOut expands a -w format: %{variable}, %% and the escapes \n \r \t
// \\. An unknown variable is reported on stderr and expands to nothing, as
// curl does.
func writeOut(env *command.Env, format string, req abi.FetchRequest, res abi.FetchResponse, size int) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		switch {
		case c == '\\':
			e, next, _ := escape.Append(escape.CurlWriteOut, nil, format, i)
			b.Write(e)
			i = next - 1
		case c == '%' && i+1 < len(format) && format[i+1] == '%':
			b.WriteByte('%')
			i++
		case c == '%' && i+1 < len(format) && format[i+1] == '{':
			end := strings.IndexByte(format[i+2:], '}')
			if end < 0 {
				b.WriteString(format[i:])
				return b.String()
			}
			name := format[i+2 : i+2+end]
			i += 2 + end
			switch name {
			case "http_code", "response_code":
				fmt.Fprintf(&b, "%03d", res.Status)
			case "url_effective", "url":
				if name == "url" || res.URL == "" {
					b.WriteString(req.URL)
				} else {
					b.WriteString(res.URL)
				}
			case "content_type":
				b.WriteString(header(res, "content-type"))
			case "size_download":
				b.WriteString(strconv.Itoa(size))
			case "redirect_url":
				if res.Status >= 300 && res.Status < 400 {
					b.WriteString(redirectURL(req, res))
				}
			case "method":
				b.WriteString(req.Method)
			default:
				fmt.Fprintf(env.Stderr, "curl: unknown --write-out variable: '%s'\n", name)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// redirectURL is the Location of a redirect, made absolute against the
// response's URL as curl prints it; it is only printed (-w), never
// requested.
func redirectURL(req abi.FetchRequest, res abi.FetchResponse) string {
	loc := header(res, "location")
	base := res.URL
	if base == "" {
		base = req.URL
	}
	b, err := url.Parse(base)
	if err != nil {
		return loc
	}
	l, err := url.Parse(loc)
	if err != nil {
		return loc
	}
	return b.ResolveReference(l).String()
}
