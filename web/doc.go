// Package web is the local web app behind `container serve`: the board drawn as SVG, a
// replay viewer for saved game records and dataset games, games against bots played with the
// mouse, and "ask a bot" for any position a viewer may see.
//
// It reaches bots only through the bots registry and positions only through redacted views
// (rules.State.Redact): everything sent for a seat is built from that seat's view, so an
// opponent's scoring card or an unrevealed sealed bid never leaves the server. The front end
// (static/: plain HTML, CSS and JavaScript modules, no build step) is embedded with go:embed.
//
// Security: play sessions are addressed by an id and driven only with an unguessable token
// (X-Game-Token header) held by the browser that created them; request bodies are
// size-limited; file paths are confined to the --data directory (no "..", no absolute paths,
// no symbolic link leading outside); the number of live sessions is capped and idle ones
// expire; bad requests get a 4xx status with a one-line message.
package web
