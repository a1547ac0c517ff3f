"""Things that run around a command: a reader or writer on a named pipe, a lock held."""

import fcntl
import os
import threading


class _FifoPeer:
    """The other end of a named pipe, served in a thread while the command runs. A subclass
    says how it opens the pipe (mode), which end unblocks a peer the command never opened
    (unblock) and what it does with the open file (serve)."""

    mode, unblock = "rb", os.O_WRONLY

    def __init__(self, path):
        self.path = path

    def start(self, d):
        self.p = os.path.join(d, self.path)

        def run():
            try:
                with open(self.p, self.mode) as fh:
                    self.serve(fh)
            except OSError:
                pass
        self.t = threading.Thread(target=run, daemon=True)
        self.t.start()

    def stop(self, d):
        self.t.join(2)
        if self.t.is_alive():  # the command never opened the pipe: let the peer's open return
            try:
                os.close(os.open(self.p, self.unblock | os.O_NONBLOCK))
            except OSError:
                pass
            self.t.join(5)

    def problems(self, res):
        return []


class FifoReader(_FifoPeer):
    """Reads a named pipe while the command runs (as `cat PIPE` would)."""

    mode, unblock = "rb", os.O_WRONLY

    def __init__(self, path, must_get=True):
        super().__init__(path)
        self.must_get, self.data = must_get, b""

    def serve(self, fh):
        self.data = fh.read()

    def problems(self, res):
        if self.must_get and res.rc == 0 and not self.data:
            return [f"the reader of {self.path} got nothing"]
        return []


class FifoWriter(_FifoPeer):
    """Writes data into a named pipe while the command runs."""

    mode, unblock = "wb", os.O_RDONLY

    def __init__(self, path, data):
        super().__init__(path)
        self.data = data

    def serve(self, fh):
        fh.write(self.data)


class Flock:
    """Holds an exclusive flock on a file while the command runs (another run writing)."""

    def __init__(self, path):
        self.path = path

    def start(self, d):
        self.fh = open(os.path.join(d, self.path), "a")
        fcntl.flock(self.fh, fcntl.LOCK_EX)

    def stop(self, d):
        fcntl.flock(self.fh, fcntl.LOCK_UN)
        self.fh.close()

    def problems(self, res):
        return []
