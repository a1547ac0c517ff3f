package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/container-rl/container/web"
	"github.com/spf13/cobra"
)

type serveOptions struct {
	addr     string
	data     string
	maxGames int
	expire   time.Duration
}

func newServeCmd() *cobra.Command {
	o := serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the local web app: the board as a picture, replays, games against bots, ask a bot",
		Long: `Serve the web app on --addr (127.0.0.1 by default, so only this machine can reach it) and
print its URL. Screens: Play (a game against bots with the mouse: legal moves on the board and as a
list, undo within your turn, the record to download when the game is over), Replay (step through
a game record or a dataset game by decision or by turn, from a seat's view or, for finished games,
the whole game) and, in both, Ask a bot (what a chosen bot would play; trained bots add their top
moves with probabilities and their value estimate).

--data DIR exposes the game records, datasets and .bot files under DIR, and nothing outside it.
The server has no accounts: an --addr other than a loopback address (0.0.0.0, a LAN address)
makes it reachable from the network, and it says so when it starts. Requests must name the
served address or a loopback name as their Host, come from the app's own page (Origin), and
POST JSON (docs/WEB.md).
Ctrl-C stops the server gracefully (requests in progress finish).`,
		Example: `  container serve
  container serve --data runs --addr 127.0.0.1:8080`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runServe(ctx, o, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	f.StringVar(&o.data, "data", "", "directory whose game records, datasets and .bot files may be opened (nothing outside it)")
	f.IntVar(&o.maxGames, "max-games", 200, "most games and replays open at once")
	f.DurationVar(&o.expire, "expire", 2*time.Hour, "close games and replays idle this long")
	return cmd
}

func init() { register(newServeCmd) }

// runServe serves until ctx is cancelled, then shuts down gracefully.
func runServe(ctx context.Context, o serveOptions, out io.Writer) error {
	if err := checkIntFlags(intIn("serve", "max-games", o.maxGames)); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if o.expire < time.Second {
		return fmt.Errorf("serve: --expire %v is shorter than a second", o.expire)
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	srv, err := web.New(web.Config{DataDir: o.data, MaxSessions: o.maxGames, Expiry: o.expire, Addr: ln.Addr().String()})
	if err != nil {
		ln.Close()
		return fmt.Errorf("serve: %w", err)
	}
	defer srv.Close()
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute,
		WriteTimeout: time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	fmt.Fprintf(out, "container serve: http://%s/ (Ctrl-C to stop)\n", ln.Addr())
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		fmt.Fprintf(out, "container serve: warning: %s is reachable from the network and the server has no accounts: anyone who reaches it can open games and replays and read what --data exposes\n", ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("serve: shutting down: %w", err)
	}
	fmt.Fprintln(out, "container serve: stopped")
	return nil
}
