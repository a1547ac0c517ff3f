"""Observation and action spaces described without gymnasium.

The classes hold what gymnasium's spaces hold (bounds, shape, dtype, n) and convert with
``to_gymnasium()`` when gymnasium is installed::

    space = env.observation_space("player_0").to_gymnasium()   # gymnasium.spaces.Dict
"""

import numpy as np


class Box:
    """A box of shape ``shape`` with per-entry bounds ``low``/``high`` (like gymnasium.spaces.Box)."""

    def __init__(self, low, high, shape, dtype):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.low = np.broadcast_to(np.asarray(low, dtype=self.dtype), self.shape).copy()
        self.high = np.broadcast_to(np.asarray(high, dtype=self.dtype), self.shape).copy()

    def contains(self, x):
        x = np.asarray(x)
        return x.shape == self.shape and x.dtype == self.dtype and bool(
            np.all(x >= self.low) and np.all(x <= self.high))

    def to_gymnasium(self):
        from gymnasium import spaces  # optional dependency
        return spaces.Box(low=self.low, high=self.high, shape=self.shape, dtype=self.dtype)

    def __repr__(self):
        return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, {self.dtype})"


class Discrete:
    """Action ids 0..n-1 (like gymnasium.spaces.Discrete); only the masked ones are legal."""

    def __init__(self, n):
        self.n = int(n)
        self.shape = ()
        self.dtype = np.dtype(np.int64)

    def contains(self, x):
        return isinstance(x, (int, np.integer)) and 0 <= int(x) < self.n

    def to_gymnasium(self):
        from gymnasium import spaces
        return spaces.Discrete(self.n)

    def __repr__(self):
        return f"Discrete({self.n})"


class Dict:
    """Named sub-spaces (like gymnasium.spaces.Dict)."""

    def __init__(self, spaces):
        self.spaces = dict(spaces)

    def __getitem__(self, key):
        return self.spaces[key]

    def contains(self, x):
        return isinstance(x, dict) and x.keys() == self.spaces.keys() and all(
            s.contains(x[k]) for k, s in self.spaces.items())

    def to_gymnasium(self):
        from gymnasium import spaces
        return spaces.Dict({k: s.to_gymnasium() for k, s in self.spaces.items()})

    def __repr__(self):
        return f"Dict({self.spaces!r})"
