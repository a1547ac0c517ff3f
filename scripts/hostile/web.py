"""Category "http": requests to one container serve with its own --data."""

import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time

from .cases import Case, G, PANIC_MARKERS, add
from .checks import base_env, file_problems, snapshot
from .fixtures import botfiles


class Server:
    def __init__(self, data):
        self.data = data

    def start(self, root):
        self.p = subprocess.Popen([G["container"], "serve", "--addr", "127.0.0.1:0", "--data", self.data,
                                   "--max-games", "12"], cwd=root, env=base_env(), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, start_new_session=True)
        line = b""
        deadline = time.monotonic() + 30
        self.out = []
        # read the first line ("container serve: http://127.0.0.1:PORT/ (Ctrl-C to stop)")
        t = threading.Thread(target=lambda: self.out.append(self.p.stdout.readline()), daemon=True)
        t.start()
        t.join(max(0.0, deadline - time.monotonic()))
        line = self.out[0] if self.out else b""
        m = re.search(rb"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            self.p.kill()
            raise SystemExit(f"hostile.py: container serve did not start: {line!r} {self.p.stderr.read()[:300]!r}")
        self.port = int(m.group(1))
        self.host = f"127.0.0.1:{self.port}"

    def stop(self):
        self.p.send_signal(signal.SIGINT)
        try:
            out, err = self.p.communicate(timeout=20)
            return self.p.returncode, out, err, False
        except subprocess.TimeoutExpired:
            os.killpg(self.p.pid, signal.SIGKILL)
            out, err = self.p.communicate()
            return self.p.returncode, out, err, True


def http_req(srv, method, path, headers=None, body=None, host=True, timeout=60):
    c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=timeout)
    try:
        c.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        if host is True:
            c.putheader("Host", srv.host)
        elif host is not False:
            c.putheader("Host", host)
        for k, v in (headers or {}).items():
            c.putheader(k, v)
        if body is not None:
            if isinstance(body, str):
                body = body.encode()
            c.putheader("Content-Length", str(len(body)))
        c.endheaders()
        if body:
            try:
                c.send(body)
            except (BrokenPipeError, ConnectionResetError):
                pass
        r = c.getresponse()
        data = r.read()
        return r.status, data, dict(r.getheaders())
    finally:
        c.close()


def raw_req(srv, data, timeout=30):
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=timeout)
    try:
        s.sendall(data)
        buf = b""
        while b"\r\n" not in buf:
            chunk = s.recv(4096)
            if not chunk:
                break
            buf += chunk
        m = re.match(rb"HTTP/1\.[01] (\d{3})", buf)
        return int(m.group(1)) if m else None, buf
    finally:
        s.close()


JSONH = {"Content-Type": "application/json"}
TOKEN = re.compile(r"\{(g\d|t\d|r\d|rt\d|host|port)\}")  # {g1}: an id an earlier case saved


def hcase(name, method, path, want, body=None, headers=None, host=True, save=None, raw=None, note=None):
    """want: a status or a set of statuses (0 in the set: a 3xx redirect inside the server
    is accepted for a path the router cleans)."""
    def fn(ctx):
        srv = ctx["srv"]
        fmt = lambda s: TOKEN.sub(lambda m: ctx["ids"][m.group(1)], s) if isinstance(s, str) else s
        probs = []
        try:
            if raw is not None:
                status, data = raw_req(srv, fmt(raw).encode("latin-1") if isinstance(raw, str) else raw)
                hdrs = {}
            else:
                h = {k: fmt(v) for k, v in (headers or {}).items()}
                status, data, hdrs = http_req(srv, method, fmt(path), h, fmt(body) if isinstance(body, str) else body,
                                              host=fmt(host) if isinstance(host, str) else host)
        except (OSError, http.client.HTTPException) as e:
            probs.append(f"no answer: {type(e).__name__}: {e}")
            status, data, hdrs = None, b"", {}
        wants = want if isinstance(want, (set, frozenset)) else {want}
        if status is not None:
            if status >= 500:
                probs.append(f"status {status} (a 5xx): {data[:150]!r}")
            elif status not in wants and not (0 in wants and 300 <= status < 400 and _inside(hdrs.get("Location", ""))):
                probs.append(f"status {status}, want {sorted(wants)}: {data[:150]!r}")
            go_level = data.startswith(b"400 Bad Request") or status in (414, 431)  # net/http's own answers
            if raw is None and 400 <= status < 500 and fmt(path).startswith("/api/") and not go_level:
                try:
                    e = json.loads(data)
                    if not (isinstance(e, dict) and isinstance(e.get("error"), str) and "\n" not in e["error"]
                            and e["error"].strip()):
                        probs.append(f"error body is not {{\"error\": \"one line\"}}: {data[:120]!r}")
                except ValueError:
                    probs.append(f"error body is not JSON: {data[:120]!r}")
            if save and status == 200:
                obj = json.loads(data)
                for k, v in save.items():
                    ctx["ids"][k] = obj[v]
        if srv.p.poll() is not None:
            probs.append(f"the server exited (status {srv.p.returncode})")
        return probs, f"status {status}" + (f" ({note})" if note else "")
    add(Case("http", name, kind="fn", fn=fn))


def _inside(loc):
    return loc.startswith("/") and not loc.startswith("//") and ".." not in loc


def cases_http():
    # sessions first (their ids and tokens feed the later cases)
    new3 = '{"players":3,"seat":0,"opponents":["random"],"seed":1}'
    hcase("new-game-1", "POST", "/api/games", 200, new3, JSONH, save={"g1": "id", "t1": "token"})
    hcase("new-game-2", "POST", "/api/games", 200, new3, JSONH, save={"g2": "id", "t2": "token"})
    hcase("new-replay-path", "POST", "/api/replays", 200, '{"path":"game-00000.json"}', JSONH,
          save={"r1": "id", "rt1": "token"})
    hcase("new-replay-dataset", "POST", "/api/replays", 200, '{"dataset":"sp","game":0}', JSONH)
    hcase("page", "GET", "/", 200)
    hcase("bots", "GET", "/api/bots", 200)
    hcase("files", "GET", "/api/files", 200, note="with a FIFO, garbage bots and links in --data")
    # odd paths
    for i, p in enumerate(["/%ff", "/%00%ff", "/%00", "/api/%ff", "/api/games/%ff", "/api/games/%00",
                           "/api/games/a%00b/record", "/api/replays/%ff%fe/step/0", "/%c0%af", "/api/%e2%80%ae"]):
        hcase(f"bad-path-{i}", "GET", p, {400, 404})
    for i, p in enumerate(["/../../etc/passwd", "/api/../../etc/passwd", "/api/games/../../../etc/passwd",
                           "/static/../../../../etc/passwd", "/./api/bots/../files", "//etc/passwd",
                           "/api//bots"]):
        hcase(f"dotdot-path-{i}", "GET", p, {0, 400, 403, 404}, note="a 3xx is Go's path cleaning to a path inside")
    for i, p in enumerate(["/api/games/x%2F..%2F..%2Fetc", "/api/replays/..%2f..%2fetc%2fpasswd/step/0",
                           "/api/games/%2e%2e/record", "/api%2Fbots", "/api/replays/%2e%2e%2f/step/1"]):
        hcase(f"encoded-slash-{i}", "GET", p, {400, 401, 403, 404})
    hcase("long-path", "GET", "/" + "a" * 100000, {400, 404, 414, 431})
    hcase("many-headers", "GET", "/api/bots", {200, 431}, headers={f"X-H{i}": "v" * 100 for i in range(300)})
    # content type
    for i, ct in enumerate([None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                            "application/jsonx", "json", "application/json-patch+json", "text/json", ""]):
        hcase(f"content-type-{i}", "POST", "/api/games", 415, new3, {} if ct is None else {"Content-Type": ct})
    hcase("content-type-charset", "POST", "/api/games", 200, new3, {"Content-Type": "application/json; charset=utf-8"},
          save={"g3": "id", "t3": "token"})
    hcase("content-type-capitals", "POST", "/api/games", {200, 415}, new3, {"Content-Type": "Application/JSON"},
          save={"g4": "id", "t4": "token"})
    hcase("move-without-content-type", "POST", "/api/games/{g1}/move", 415, '{"move":"end"}', {"X-Game-Token": "{t1}"})
    hcase("replay-without-content-type", "POST", "/api/replays", 415, '{"path":"game-00000.json"}')
    # oversize bodies
    hcase("oversize-game", "POST", "/api/games", 413, '{"players":3,"x":"' + "a" * 70000 + '"}', JSONH)
    hcase("oversize-replay", "POST", "/api/replays", 413, '{"record":"' + "a" * (5 << 20) + '"}', JSONH)
    hcase("oversize-move", "POST", "/api/games/{g1}/move", 413, '{"move":"' + "a" * 70000 + '"}',
          dict(JSONH, **{"X-Game-Token": "{t1}"}))
    hcase("oversize-undo", "POST", "/api/games/{g1}/undo", {400, 413}, "{" + " " * 70000 + "}",
          dict(JSONH, **{"X-Game-Token": "{t1}"}))
    # host and origin
    for i, h in enumerate(["evil.example", "evil.example:80", "127.0.0.1.evil.example", "localhost.evil.example",
                           "evil.example:{port}", "[::2]", "0.0.0.0", "127.1", "2130706433", " ", "a b",
                           "localhost@evil.example"]):
        hcase(f"foreign-host-{i}", "GET", "/api/bots", {400, 403}, host=h)
    for i, h in enumerate(["localhost:1", "127.0.0.1", "[::1]:9", "app.localhost"]):
        hcase(f"loopback-host-{i}", "GET", "/api/bots", 200, host=h)
    # another loopback address: cannot be rebound by DNS, so either answer is safe
    hcase("loopback-host-127-0-0-2", "GET", "/api/bots", {200, 403}, host="127.0.0.2")
    hcase("no-host", None, None, 400, raw="GET /api/bots HTTP/1.1\r\nConnection: close\r\n\r\n")
    hcase("two-hosts", None, None, {400, 403}, raw="GET /api/bots HTTP/1.1\r\nHost: {host}\r\nHost: evil.example\r\n"
          "Connection: close\r\n\r\n")
    hcase("absolute-uri-foreign", None, None, {400, 403}, raw="GET http://evil.example/api/bots HTTP/1.1\r\n"
          "Host: evil.example\r\nConnection: close\r\n\r\n")
    hcase("http10-no-host", None, None, {200, 400, 403}, raw="GET /api/bots HTTP/1.0\r\n\r\n")
    hcase("raw-non-ascii-path", None, None, {400, 404}, raw=b"GET /\xff\xfe HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          b"Connection: close\r\n\r\n")
    hcase("raw-non-ascii-token", None, None, {400, 403, 404}, raw=b"GET /api/games/x HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          b"X-Game-Token: \xff\xfe\r\nConnection: close\r\n\r\n")
    for i, o in enumerate(["http://evil.example", "null", "http://127.0.0.1:1", "http://localhost:{port}",
                           "http://{host}.evil.example", "file://", "http://[::1]:{port}", "http://evil.example:{port}"]):
        hcase(f"foreign-origin-{i}", "POST", "/api/games", 403, new3, dict(JSONH, Origin=o))
    # not another site: https on this very host:port (no other server can hold it), this origin
    # with a path, an empty header; either answer is safe
    for i, o in enumerate(["https://{host}", "http://{host}/path", ""]):
        hcase(f"odd-origin-{i}", "POST", "/api/games", {200, 403}, new3, dict(JSONH, Origin=o))
    hcase("same-origin", "POST", "/api/games", 200, new3, dict(JSONH, Origin="http://{host}"),
          save={"g5": "id", "t5": "token"})
    hcase("foreign-origin-get", "GET", "/api/bots", 403, headers={"Origin": "http://evil.example"})
    hcase("preflight", "OPTIONS", "/api/games", {403, 404, 405}, headers={"Origin": "http://evil.example",
                                                                           "Access-Control-Request-Method": "POST"})
    # bad JSON bodies
    bodies = ["", "{", "[]", "null", "42", '"x"', '{"players":3,"players":4}', '{"Players":3}', '{"players":"3"}',
              '{"players":99}', '{"players":-1}', '{"players":3.5}', '{"players":1e400}', '{"players":3,"seat":7}',
              '{"players":3,"seat":-1}', '{"opponents":["nosuch"]}', '{"opponents":["garbage.bot"]}',
              '{"opponents":["../outside/x.bot"]}', '{"opponents":["/etc/passwd"]}', '{"opponents":"random"}',
              '{"opponents":["random","random","random","random","random"]}', '{"seed":-1}', '{"seed":1e30}',
              '{"turn_limit":-5}', '{"turn_limit":99999999}', '{"modules":"nosuch"}', '{"variant":"nosuch"}',
              '{"length":"forever"}', '{} {}', '{"players":3}x', '{"players":3,}', "{'players':3}",
              '{"a":' * 20000 + "1" + "}" * 20000, '{"players":3,"nosuch":1}', "\ufeff{}", '{"players":3}\x00',
              '{"opponents":["rand\\u0000om"]}', '{"opponents":[' + ",".join(['"random"'] * 5000) + "]}"]
    for i, b in enumerate(bodies):
        hcase(f"bad-new-game-{i:02d}", "POST", "/api/games", 400 if len(b) < 65536 else {400, 413}, b, JSONH)
    hcase("bad-new-game-non-utf8", "POST", "/api/games", 400, b'{"opponents":["\xff"]}', JSONH)
    # unknown ids and tokens
    hcase("unknown-game", "GET", "/api/games/nosuch", 404, headers={"X-Game-Token": "{t1}"})
    hcase("unknown-game-no-token", "GET", "/api/games/0000000000000000", {401, 404})
    hcase("unknown-game-delete", "DELETE", "/api/games/nosuch", 404, headers={"X-Game-Token": "{t1}"})
    hcase("unknown-replay", "GET", "/api/replays/nosuch/step/0", 404, headers={"X-Game-Token": "{rt1}"})
    hcase("unknown-replay-ask", "POST", "/api/replays/nosuch/ask", 404, '{"bot":"random","step":0,"viewer":0}',
          dict(JSONH, **{"X-Game-Token": "{rt1}"}))
    hcase("game-no-token", "GET", "/api/games/{g1}", 401)
    hcase("game-other-games-token", "GET", "/api/games/{g1}", 403, headers={"X-Game-Token": "{t2}"})
    hcase("game-replays-token", "GET", "/api/games/{g1}", 403, headers={"X-Game-Token": "{rt1}"})
    hcase("game-garbage-token", "GET", "/api/games/{g1}", 403, headers={"X-Game-Token": "garbage"})
    hcase("game-empty-token", "GET", "/api/games/{g1}", {401, 403}, headers={"X-Game-Token": ""})
    hcase("game-long-token", "GET", "/api/games/{g1}", 403, headers={"X-Game-Token": "a" * 10000})
    hcase("move-other-token", "POST", "/api/games/{g1}/move", 403, '{"move":"end"}',
          dict(JSONH, **{"X-Game-Token": "{t2}"}))
    hcase("delete-other-token", "DELETE", "/api/games/{g1}", 403, headers={"X-Game-Token": "{t2}"})
    hcase("replay-games-token", "GET", "/api/replays/{r1}/step/0", 403, headers={"X-Game-Token": "{t1}"})
    hcase("replay-no-token", "GET", "/api/replays/{r1}/step/0", 401)
    hcase("record-other-token", "GET", "/api/games/{g1}/record", 403, headers={"X-Game-Token": "{t2}"})
    tk = {"X-Game-Token": "{t1}"}
    tkj = dict(JSONH, **tk)
    hcase("state-good", "GET", "/api/games/{g1}?since=0", 200, headers=tk)
    for i, q in enumerate(["-1", "abc", "999999", "1e3", "", "0x1", "99999999999999999999", "1.0", "0&since=1"]):
        hcase(f"since-{i}", "GET", "/api/games/{g1}?since=" + q, {200, 400} if q in ("", "0&since=1") else 400,
              headers=tk)
    for i, b in enumerate(['{"move":"nosuch"}', '{"move":123}', '{"move":"end","x":1}', '{"Move":"end"}',
                           '{"move":"end","move":"end"}', '{"move":""}', "{}", '{"move":"end","since":-1}',
                           '{"move":"end","since":"0"}', '{"move":"\u202e"}', '{"move":"place:$99999999999999999999"}',
                           "[]", "null", '{"move":null}']):
        hcase(f"bad-move-{i:02d}", "POST", "/api/games/{g1}/move", {400, 409}, b, tkj)
    hcase("undo-with-field", "POST", "/api/games/{g1}/undo", 400, '{"x":1}', tkj)
    hcase("undo-garbage", "POST", "/api/games/{g1}/undo", 400, "garbage", tkj)
    hcase("undo-nothing-to-undo", "POST", "/api/games/{g1}/undo", {200, 409}, "{}", tkj)
    for i, b in enumerate(['{"bot":"nosuch"}', '{"bot":"garbage.bot"}', '{"bot":"../outside/x.bot"}', '{"bot":1}',
                           '{"bot":"random","step":0}', '{"Bot":"random"}', "{}", '{"bot":"ismcts:sims=-1"}',
                           '{"bot":"dup.bot"}', '{"bot":"trunc.bot"}', '{"bot":"link-out.bot"}']):
        hcase(f"bad-ask-{i:02d}", "POST", "/api/games/{g1}/ask", {400, 403, 404, 409}, b, tkj)
    hcase("record-before-end", "GET", "/api/games/{g1}/record", 409, headers=tk)
    for i, n in enumerate(["-1", "abc", "99999", "99999999999999999999", "1.5", "%00", ""]):
        hcase(f"history-{i}", "GET", "/api/games/{g1}/history/" + n, {400, 404}, headers=tk)
    rtk = {"X-Game-Token": "{rt1}"}
    hcase("replay-step-good", "GET", "/api/replays/{r1}/step/0?viewer=-1", 200, headers=rtk)
    for i, q in enumerate(["step/-2", "step/abc", "step/999999", "step/99999999999999999999", "step/0?viewer=9",
                           "step/0?viewer=abc", "step/0?viewer=-2", "step/0?viewer=", "step/1.5"]):
        hcase(f"replay-{i}", "GET", "/api/replays/{r1}/" + q, {200, 400} if q.endswith("viewer=") else {400, 404},
              headers=rtk)
    for i, b in enumerate(['{"bot":"random","step":0,"viewer":5}', '{"bot":"random","step":-1,"viewer":0}',
                           '{"bot":"nosuch","step":0,"viewer":-1}', '{"bot":"random","step":999999,"viewer":-1}',
                           '{"bot":"random","step":0,"viewer":0,"x":1}', '{"bot":"random","step":"0","viewer":0}']):
        hcase(f"replay-ask-{i}", "POST", "/api/replays/{r1}/ask", {400, 409}, b, dict(JSONH, **rtk))
    # replays from files: traversal, links, odd files
    for i, (b, want) in enumerate([
            ('{"path":"../outside/secret.json"}', {400}), ('{"path":"/etc/passwd"}', {400}),
            ('{"path":"link-out.json"}', {403}), ('{"path":"missing.json"}', {404}), ('{"path":"dir.json"}', {400}),
            ('{"path":"fifo.json"}', {400}), ('{"path":"garbage.json"}', {400}), ('{"path":""}', {400}),
            ('{"path":"sub/../../outside/secret.json"}', {400}), ('{"path":"a\\u0000b"}', {400}),
            ('{"path":"%2e%2e/outside/secret.json"}', {400, 404}), ('{"path":"x.bot"}', {400}),
            ('{"path":"sp"}', {400}), ('{"path":"link-loop.json"}', {400, 403, 404}),
            ('{"path":"..\\\\outside\\\\secret.json"}', {400, 404}), ('{"path":"big.json"}', {400, 413}),
            ('{"dataset":"sp","game":-1}', {400}), ('{"dataset":"sp","game":99999}', {400, 404}),
            ('{"dataset":"../outside","game":0}', {400}), ('{"dataset":"game-00000.json","game":0}', {400}),
            ('{"dataset":"link-out-dir","game":0}', {403}), ('{"dataset":"sp","game":"0"}', {400}),
            ('{"dataset":"sp"}', {200, 400}), ('{"record":"string"}', {400}), ('{"record":{"garbage":1}}', {400}),
            ('{"record":{}}', {400}), ('{"path":"game-00000.json","dataset":"sp","game":0}', {400}), ("{}", {400}),
            ('{"record":{"format":"container-game/1","moves":["nosuch"]}}', {400}),
            ('{"path":"game-00000.json","x":1}', {400})]):
        hcase(f"replay-file-{i:02d}", "POST", "/api/replays", want, b, JSONH)
    # methods
    for i, (m, p) in enumerate([("PUT", "/api/games"), ("PATCH", "/api/games/{g1}"), ("DELETE", "/api/bots"),
                                ("TRACE", "/"), ("FOO", "/api/bots"), ("POST", "/api/bots"), ("GET", "/api/replays"),
                                ("CONNECT", "/"), ("GET", "/api/games/{g1}/move"), ("POST", "/api/games/{g1}")]):
        hcase(f"method-{i}", m, p, {400, 404, 405, 415}, headers=tk)
    hcase("head-page", "HEAD", "/", {200, 405})
    hcase("static-missing", "GET", "/static/nosuch.js", 404)
    hcase("unknown-api", "GET", "/api/nosuch", 404)
    # close sessions, then the session cap (--max-games 12): 429 beyond
    hcase("delete-game-2", "DELETE", "/api/games/{g2}", {200, 204}, headers={"X-Game-Token": "{t2}"})
    hcase("deleted-game-gone", "GET", "/api/games/{g2}", 404, headers={"X-Game-Token": "{t2}"})

    def cap(ctx):
        srv, probs, got = ctx["srv"], [], []
        for _ in range(14):
            try:
                st, data, _ = http_req(srv, "POST", "/api/games", JSONH, new3)
            except OSError as e:
                probs.append(f"no answer: {e}")
                break
            got.append(st)
            if st >= 500:
                probs.append(f"status {st}")
            if st == 429:
                break
        if 429 not in got:
            probs.append(f"no 429 after {len(got)} new games: {got}")
        return probs, f"statuses {got}"
    add(Case("http", "session-cap-429", kind="fn", fn=cap))


def http_data(d):
    os.makedirs(d)
    out = os.path.join(os.path.dirname(d), "outside")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "secret.json"), "w") as fh:
        fh.write(open(os.path.join(G["fix"], "saved", "game-00000.json")).read())
    shutil.copy2(os.path.join(G["fix"], "saved", "game-00000.json"), d)
    shutil.copytree(os.path.join(G["fix"], "sp"), os.path.join(d, "sp"))
    botfiles(d)
    os.symlink(os.path.join(out, "secret.json"), os.path.join(d, "link-out.json"))
    os.symlink(os.path.join(G["fix"], "x.bot"), os.path.join(d, "link-out.bot"))
    os.symlink(out, os.path.join(d, "link-out-dir"))
    os.symlink("link-loop.json", os.path.join(d, "link-loop.json"))
    os.symlink("nothing", os.path.join(d, "dangling.json"))
    os.makedirs(os.path.join(d, "dir.json"))
    os.mkfifo(os.path.join(d, "fifo.json"))
    with open(os.path.join(d, "garbage.json"), "w") as fh:
        fh.write("{garbage")
    with open(os.path.join(d, "big.json"), "w") as fh:
        fh.write("[" + " " * (6 << 20) + "]")
    with open(os.path.join(os.fsencode(d), b"\xff\xfe.json"), "w") as fh:
        fh.write("{}")


def run_http(cases, root, report):
    data = os.path.join(root, "http", "data")
    http_data(data)
    before = snapshot(data)
    srv = Server(data)
    srv.start(os.path.join(root, "http"))
    ctx = {"srv": srv, "ids": {"host": srv.host, "port": str(srv.port)}}
    try:
        for c in cases:
            t0 = time.monotonic()
            try:
                probs, why = c.fn(ctx)
            except KeyError as e:
                probs, why = [f"an earlier case did not give {e}"], "skipped"
            except Exception as e:  # a bug here is a BAD line, not a crash of the sweep
                probs, why = [f"harness error: {type(e).__name__}: {e}"], "error"
            report(c, probs, why, time.monotonic() - t0)
    finally:
        rc, out, err, hung = srv.stop()
    probs = []
    if hung:
        probs.append("did not stop within 20s of SIGINT")
    if rc != 0:
        probs.append(f"exit status {rc} after SIGINT")
    if b"stopped" not in out:
        probs.append(f"no 'stopped' line: {out[-200:]!r}")
    et = err.decode("utf-8", "replace")
    for m in PANIC_MARKERS:
        if m in et:
            probs.append(f"standard error holds {m!r}: {et[:200]!r}")
            break
    report(Case("http", "shutdown-sigint"), probs, f"exit {rc}", 0)
    after = snapshot(data)
    dp = file_problems(before, after, [], [], 0)
    new = sorted(set(after) - set(before))
    if new:
        dp.append(f"wrote under --data: {new[:4]}")
    report(Case("http", "data-dir-unchanged"), dp, f"{len(after)} paths under --data", 0)
