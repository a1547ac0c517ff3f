package web

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/strictjson"
)

// The checks every request passes before it reaches a handler, against other web pages in the
// user's browser: a page on another site may send requests to this server (it cannot read the
// answers), and a page whose own host name was made to resolve to this machine (DNS
// rebinding) may even read them. The server has no accounts, so these checks are what keeps
// such pages from filling --max-games or listing --data:
//
//   - Host must be the served address or a loopback name (a rebinding page sends its own name);
//   - Origin, when a browser sends one, must be this server (same origin);
//   - a POST must say Content-Type: application/json, which a page on another site cannot send
//     without the browser first asking this server's permission (a CORS preflight, which the
//     server never grants);
//   - the path must be valid UTF-8 without NUL bytes (400 rather than an internal error).

// hostCheck holds the host names a request's Host header may name.
type hostCheck struct {
	names map[string]bool // lower case, without port or brackets
	anyIP bool            // every IP address (the server listens on all of them)
}

// newHostCheck returns the check for a server listening on addr ("" for loopback only).
func newHostCheck(addr string) (hostCheck, error) {
	h := hostCheck{names: map[string]bool{"localhost": true}}
	if addr == "" {
		return h, nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return h, fmt.Errorf("web: address %s: %w", rules.Quote(addr), err)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		h.anyIP = true
		if name, err := os.Hostname(); err == nil && name != "" {
			h.names[strings.ToLower(name)] = true
		}
		return h, nil
	}
	if ip := net.ParseIP(host); ip != nil {
		host = ip.String()
	}
	h.names[strings.ToLower(host)] = true
	return h, nil
}

// allows reports whether hostport (a Host header) names this server.
func (h hostCheck) allows(hostport string) bool {
	host := hostport
	if hh, _, err := net.SplitHostPort(hostport); err == nil {
		host = hh
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	if host == "" {
		return false
	}
	if ip := net.ParseIP(host); ip != nil {
		return h.anyIP || ip.IsLoopback() || h.names[ip.String()]
	}
	return h.names[host] || strings.HasSuffix(host, ".localhost")
}

// checkRequest applies the checks above; the error carries the status to answer.
func (s *Server) checkRequest(r *http.Request) error {
	if p := r.URL.Path; !utf8.ValidString(p) || strings.IndexByte(p, 0) >= 0 {
		return errorf(http.StatusBadRequest, "the path %s is not valid UTF-8 text", rules.Quote(r.URL.EscapedPath()))
	}
	if !s.hosts.allows(r.Host) {
		return errorf(http.StatusForbidden, "Host %s is not this server's address; open the app at the address container serve printed", rules.Quote(r.Host))
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !strings.EqualFold(u.Host, r.Host) {
			return errorf(http.StatusForbidden, "requests from other web pages are refused (Origin %s, this server is %s)", rules.Quote(o), rules.Quote(r.Host))
		}
	}
	if r.Method == http.MethodPost {
		ct := r.Header.Get("Content-Type")
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			got := "none"
			if ct != "" {
				got = rules.Quote(ct)
			}
			return errorf(http.StatusUnsupportedMediaType, "a POST must carry a JSON body with Content-Type application/json, not %s", got)
		}
	}
	return nil
}

// unmarshalStrict decodes one JSON value into v, refusing keys not spelt as v's fields,
// duplicate object keys and data after the value (internal/strictjson). Every request body
// goes through it.
var unmarshalStrict = strictjson.Decode
